// "Forgot your password?": the same disclosure on the verification page and in the console; each
// page's script wires #forgot-form to POST /api/auth/forgot-password.
import { Field, FormNotice } from "./form-field";

/** The console's English texts unless a page gives its own (the verification page's catalogue). */
const ENGLISH = { summary: "Forgot your password?", email: "Email of your account", submit: "Email me a reset link" };

export const ForgotPasswordForm = ({ texts = ENGLISH }: { texts?: typeof ENGLISH }) => (
  <details class="mt">
    <summary>{texts.summary}</summary>
    <form id="forgot-form" class="mt" novalidate>
      <FormNotice />
      <Field form="forgot" name="email" label={texts.email} type="email" autocomplete="email" required />
      <button type="submit" class="btn secondary">
        {texts.submit}
      </button>
    </form>
  </details>
);
