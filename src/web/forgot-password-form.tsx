// "Forgot your password?": the same disclosure on the verification page and in the console; each
// page's script wires #forgot-form to POST /api/auth/forgot-password.
import { Field, FormNotice } from "./form-field";

export const ForgotPasswordForm = () => (
  <details class="mt">
    <summary>Forgot your password?</summary>
    <form id="forgot-form" class="mt" novalidate>
      <FormNotice />
      <Field form="forgot" name="email" label="Email of your account" type="email" autocomplete="email" required />
      <button type="submit" class="btn secondary">
        Email me a reset link
      </button>
    </form>
  </details>
);
