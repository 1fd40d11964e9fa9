// GET /account: the person's own account page, in the same app and language as /verify (which links to it).
// What the service holds about them (email, identity status and date, passkeys, the anonymous age tokens
// kept in this browser) and what they can change: password, email, passkeys, the account itself; and
// where they add a proof of age to their wallet (proof-of-age-section.tsx). An HTML
// shell with every part present and hidden; account-page.browser.js fills it from the public JSON API
// (the account routes and the offer route, nothing of its own), with the sign-in /verify keeps in sessionStorage.
import { Field, FormNotice } from "../../web/form-field";
import { ForgotPasswordForm } from "../../web/forgot-password-form";
import { Brand, Layout, NoScript } from "../../web/layout";
import { translate } from "../../web/i18n/catalogue";
import { LanguageSwitcher, PageTexts } from "../../web/i18n/page-texts";
import type { TextKey } from "../../web/i18n/en";
import type { PageLanguage } from "../../web/i18n/load-catalogue";
import { PasskeySettings } from "../../web/passkey-sections";
import { ProofOfAgeSection } from "./proof-of-age-section";

export function AccountPage({ language, development = false }: { language: PageLanguage; development?: boolean }) {
  const { locale, catalogue } = language;
  const t = (key: TextKey) => translate(catalogue, key);
  return (
    <Layout
      title={t("me.title")}
      lang={locale}
      styles={["verify.css", "account.css"]}
      scripts={["common.js", "passkeys.js", "age-tokens.js", "qr-code.js", "account-page.js"]}
    >
      <PageTexts catalogue={catalogue} />
      <main id="me-app" data-busy-words={t("busy.sending")} data-development={development ? "true" : undefined}>
        <div class="topbar">
          <Brand name={t("brand.name")} />
          <LanguageSwitcher locale={locale} catalogue={catalogue} link={{}} />
          <button type="button" class="btn link" id="me-sign-out" hidden>
            {t("me.sign_out")}
          </button>
        </div>
        <NoScript text={t("page.noscript")} />
        <p id="me-back-line" hidden>
          <a id="me-back" href="/verify">
            {t("me.back")}
          </a>
        </p>
        <div id="me-banner" class="notice error" role="alert" hidden></div>

        <section id="me-loading" class="card" aria-busy="true">
          <div class="spinner" aria-hidden="true"></div>
          <p class="muted center">{t("me.loading")}</p>
        </section>

        <section id="me-signin" class="card" hidden aria-labelledby="me-signin-title">
          <h1 id="me-signin-title" tabindex={-1}>
            {t("me.signin.title")}
          </h1>
          <div id="me-signin-notice" class="notice info" role="status" hidden></div>
          <form id="me-login-form" novalidate>
            <FormNotice />
            <Field form="me-login" name="email" label={t("account.email")} type="email" autocomplete="email" required />
            <Field form="me-login" name="password" label={t("account.password")} type="password" autocomplete="current-password" required />
            <button type="submit" class="btn block">
              {t("me.signin.submit")}
            </button>
          </form>
          <ForgotPasswordForm texts={{ summary: t("forgot.summary"), email: t("forgot.email"), submit: t("forgot.submit") }} />
        </section>

        <section id="me-business" class="card" hidden aria-labelledby="me-business-title">
          <h1 id="me-business-title" tabindex={-1}>
            {t("me.business.title")}
          </h1>
          <p>{t("me.business.text")}</p>
          <a class="btn" href="/console">
            {t("link.console")}
          </a>
        </section>

        <section id="me-deleted" class="card" hidden aria-labelledby="me-deleted-title">
          <h1 id="me-deleted-title" tabindex={-1}>
            {t("me.deleted.title")}
          </h1>
          <p>{t("me.deleted.text")}</p>
        </section>

        <section id="me-held" class="card accent" hidden aria-labelledby="me-title">
          <h1 id="me-title" tabindex={-1}>
            {t("me.title")}
          </h1>
          <p class="muted">{t("me.intro")}</p>
          <dl class="held">
            <dt>{t("account.email")}</dt>
            <dd>
              <span id="me-email"></span>{" "}
              <button type="button" class="btn small secondary" id="me-email-resend" hidden>
                {t("me.email.resend")}
              </button>
              <span id="me-email-resent" class="muted" role="status"></span>
            </dd>
            <dt>{t("me.identity")}</dt>
            <dd id="me-identity"></dd>
            <dt>{t("me.tokens")}</dt>
            <dd>
              <span id="me-tokens" tabindex={-1}></span>{" "}
              <button type="button" class="btn small secondary" id="me-tokens-clear" hidden>
                {t("me.tokens.clear")}
              </button>
            </dd>
            <dt>{t("me.created")}</dt>
            <dd id="me-created"></dd>
          </dl>
        </section>

        <PasskeySettings t={t} standalone />

        <section id="me-password" class="card" hidden aria-labelledby="me-password-title">
          <h2 id="me-password-title">{t("me.password.title")}</h2>
          <form id="me-password-form" novalidate>
            <FormNotice />
            <Field
              form="me-password"
              name="currentPassword"
              label={t("me.password.current")}
              type="password"
              autocomplete="current-password"
              required
            />
            <Field
              form="me-password"
              name="newPassword"
              label={t("link.new_password")}
              type="password"
              autocomplete="new-password"
              required
              hint={t("me.password.hint")}
            />
            <button type="submit" class="btn secondary">
              {t("me.password.submit")}
            </button>
          </form>
        </section>

        <section id="me-email-change" class="card" hidden aria-labelledby="me-email-title">
          <h2 id="me-email-title">{t("me.email.title")}</h2>
          <form id="me-email-form" novalidate>
            <FormNotice />
            <Field form="me-email" name="newEmail" label={t("me.email.new")} type="email" autocomplete="email" required />
            <Field form="me-email" name="password" label={t("passkey.password")} type="password" autocomplete="current-password" required />
            <button type="submit" class="btn secondary">
              {t("me.email.submit")}
            </button>
          </form>
        </section>

        <ProofOfAgeSection t={t} />

        <section id="me-delete" class="card" hidden aria-labelledby="me-delete-title">
          <h2 id="me-delete-title">{t("me.delete.title")}</h2>
          <p class="muted">{t("me.delete.text")}</p>
          <form id="me-delete-form" novalidate>
            <FormNotice />
            <Field
              form="me-delete"
              name="password"
              label={t("passkey.password")}
              type="password"
              autocomplete="current-password"
              required
            />
            <button type="submit" class="btn danger">
              {t("me.delete.submit")}
            </button>
          </form>
        </section>

        <p class="footer">{t("page.footer")}</p>
      </main>
    </Layout>
  );
}
