// The pages that account mail links open (/account/verify-email, /account/reset-password,
// /account/confirm-email-change). The token arrives in the link's query, as the mail defines; the
// script takes it out of the address bar at once and sends it in a request body.
import { Field, FormNotice } from "./form-field";
import { Brand, Layout, NoScript } from "./layout";

export type AccountLinkKind = "verify-email" | "reset-password" | "confirm-email-change";

const TITLES: Record<AccountLinkKind, string> = {
  "verify-email": "Confirm your email",
  "reset-password": "Choose a new password",
  "confirm-email-change": "Confirm your new email",
};

export function AccountLinkPage({ kind }: { kind: AccountLinkKind }) {
  return (
    <Layout title={TITLES[kind]} scripts={["common.js", "account.js"]}>
      <main id="account-app" data-kind={kind}>
        <div class="topbar">
          <Brand />
        </div>
        <NoScript />
        <section class="card" aria-labelledby="account-title">
          <h1 id="account-title" tabindex={-1}>
            {TITLES[kind]}
          </h1>
          <div id="account-status" class="notice info" role="status" hidden></div>
          {kind === "reset-password" ? (
            <form id="reset-form" novalidate>
              <FormNotice />
              <Field
                form="reset"
                name="newPassword"
                label="New password"
                type="password"
                autocomplete="new-password"
                required
                hint="8 to 128 characters. Every device signed in to your account is signed out."
              />
              <button type="submit" class="btn block">
                Save the new password
              </button>
            </form>
          ) : (
            <div id="account-working">
              <div class="spinner" aria-hidden="true"></div>
              <p class="muted center">Checking your link…</p>
            </div>
          )}
          <p id="account-next" class="actions" hidden>
            <a class="btn secondary" id="account-console" href="/console" hidden>
              Open the merchant console
            </a>
          </p>
        </section>
      </main>
    </Layout>
  );
}
