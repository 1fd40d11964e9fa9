// GET /verify: the page behind the merchant's QR code or tap link. Server-rendered shell with every
// step present and hidden; assets/verify.browser.js walks the end user through them with the JSON API.
import { Field, FormNotice } from "../../web/form-field";
import { ForgotPasswordForm } from "../../web/forgot-password-form";
import { Brand, Layout, NoScript } from "../../web/layout";
import { ONFIDO_SDK_URL } from "../../web/csp";
import { PasskeyOffer, PasskeyRequired, PasskeySettings } from "../../web/passkey-sections";
import { DoubleBlindSection } from "./double-blind-section";
import { ResultIcons } from "./result-icons";
import { DateOfBirthField } from "./date-of-birth-field";
import { LanguageSwitcher, PageTexts } from "../../web/i18n/page-texts";
import { translate } from "../../web/i18n/catalogue";
import type { TextKey } from "../../web/i18n/en";
import type { PageLanguage } from "../../web/i18n/load-catalogue";

export type VerifyPageProps = {
  provider: "sandbox" | "onfido";
  language: PageLanguage;
  link: { session_id: string; nonce: string };
  development?: boolean;
};

export function VerifyPage({ provider, language, link, development = false }: VerifyPageProps) {
  const { locale, catalogue } = language;
  const sandbox = provider !== "onfido";
  const t = (key: TextKey) => translate(catalogue, key);
  return (
    <Layout
      title={t("page.title")}
      lang={locale}
      styles={["verify.css"]}
      scripts={["common.js", "passkeys.js", "age-tokens.js", "verify.js"]}
    >
      <PageTexts catalogue={catalogue} />
      {/* The Onfido SDK is not loaded with the page: verify.js injects it from data-onfido-sdk only when
          the document check starts, so a verified user (or a failed request) never runs it. */}
      {/* data-busy-words: a button whose request takes a moment says so in words (common.browser.js). */}
      {/* data-development: a setting that breaks a browser feature (APP_URL naming an IP address breaks passkeys) is named, in development only. */}
      <main
        id="verify-app"
        data-provider={provider}
        data-onfido-sdk={sandbox ? undefined : ONFIDO_SDK_URL}
        data-busy-words={t("busy.sending")}
        data-development={development ? "true" : undefined}
      >
        <div class="topbar">
          <Brand name={t("brand.name")} />
          <LanguageSwitcher locale={locale} catalogue={catalogue} link={link} />
          <a class="btn link" id="account-link" href={`/account?lang=${locale}`} hidden>
            {t("me.link")}
          </a>
          <button type="button" class="btn link" id="switch-account" hidden>
            {t("switch_account")}
          </button>
        </div>
        <NoScript text={t("page.noscript")} />

        <ol class="steps" id="progress" aria-label={t("progress.label")} hidden>
          <li id="progress-account">{t("progress.account")}</li>
          <li id="progress-identity">{t("progress.identity")}</li>
          <li id="progress-decision">{t("progress.decision")}</li>
        </ol>

        <div id="banner" class="notice error" role="alert" hidden>
          <span id="banner-text"></span>{" "}
          <button type="button" class="btn small secondary" id="banner-retry">
            {t("banner.retry")}
          </button>
        </div>

        <section id="step-loading" class="card" aria-busy="true">
          <div class="spinner" aria-hidden="true"></div>
          <p class="muted center">{t("loading.request")}</p>
        </section>

        {/* Test mode (a session opened with a test key): no account and no identity check; the tester picks the outcome. */}
        <section id="step-test" class="card" hidden aria-labelledby="test-title">
          <p class="notice warn">
            {/* verify.browser.js names the merchant and the age here, from the first screen's read. */}
            <span class="sandbox-badge">{t("test.badge")}</span> <span id="test-notice-text">{t("test.notice")}</span>
          </p>
          <h1 id="test-title" tabindex={-1}>
            {t("test.title")}
          </h1>
          <div id="test-notice" class="notice error" hidden></div>
          <div class="actions">
            <button type="button" class="btn block" data-test-outcome="APPROVED">
              {t("test.approve")}
            </button>
            <button type="button" class="btn block secondary" data-test-outcome="DENIED_UNDER_AGE">
              {t("test.underage")}
            </button>
            <button type="button" class="btn block secondary" data-test-outcome="DENIED_REFUSED">
              {t("test.refuse")}
            </button>
            <button type="button" class="btn block secondary" data-test-outcome="EXPIRED">
              {t("test.expire")}
            </button>
          </div>
        </section>

        <section id="step-intro" class="card accent" hidden aria-labelledby="intro-title">
          <h1 id="intro-title" tabindex={-1}>
            {t("page.title")}
          </h1>
          <p class="muted" id="intro-valid"></p>
          <p class="lede" id="intro-how">
            {t("intro.how")}
          </p>
          {/* "Not now" means later: the link stays valid and nothing is sent. Declining is its own, plainly worded choice. */}
          <div class="actions">
            <button type="button" class="btn secondary" id="not-now">
              {t("intro.not_now")}
            </button>
            <button type="button" class="btn link" id="intro-decline">
              {t("intro.decline")}
            </button>
          </div>
        </section>

        <section id="step-later" class="card" hidden aria-labelledby="later-title">
          <h2 id="later-title" tabindex={-1}>
            {t("later.title")}
          </h2>
          <p id="later-text"></p>
          <div class="actions">
            <button type="button" class="btn block secondary" id="later-back">
              {t("later.back")}
            </button>
          </div>
        </section>

        <section id="step-decline" class="card" hidden aria-labelledby="decline-title">
          <h2 id="decline-title" tabindex={-1}>
            {t("decline.title")}
          </h2>
          <p id="decline-text"></p>
          <div id="decline-notice" class="notice error" hidden></div>
          <div class="actions">
            <button type="button" class="btn block" id="decline-confirm">
              {t("decline.confirm")}
            </button>
            <button type="button" class="btn block secondary" id="decline-back">
              {t("decline.back")}
            </button>
          </div>
        </section>

        <section id="step-request" class="card accent" hidden aria-labelledby="request-title">
          {/* biome-ignore lint/a11y/useHeadingContent: verify.browser.js writes who asks and for what age before the step is shown */}
          <h1 class="request-title" id="request-title" tabindex={-1}></h1>
          <p class="muted" id="request-detail"></p>
          <p>
            <span class="countdown" id="countdown" role="timer" aria-live="off"></span>
          </p>
          {/* Said once, when less than a minute is left: the timer itself stays silent each second. */}
          <p class="sr-only" id="countdown-alert" role="status"></p>
        </section>

        {/* A digital ID from the person's wallet (docs/api-contract.md §Digital ID): offered first, when the session accepts it and the
            browser has the Digital Credentials API; without the API, a line says so and the other ways follow. */}
        <section id="step-wallet" class="card" hidden aria-labelledby="wallet-title">
          <h2 id="wallet-title">{t("wallet.title")}</h2>
          <p class="notice info" id="wallet-only-key" hidden>
            {t("wallet.only_key")}
          </p>
          <div id="wallet-offer" hidden>
            <p class="muted" id="wallet-text"></p>
            <div id="wallet-notice" class="notice error" role="alert" hidden></div>
            <button type="button" class="btn block" id="wallet-use">
              {t("wallet.use")}
            </button>
            {/* While the browser's wallet prompt is open: a wallet that never answers must not hold the page. */}
            <div id="wallet-waiting" hidden>
              <p class="muted mt" role="status">
                {t("wallet.waiting")}
              </p>
              <button type="button" class="btn block secondary" id="wallet-stop">
                {t("wallet.stop")}
              </button>
            </div>
          </div>
          <p class="notice info" id="wallet-unsupported" hidden></p>
          {/* A wallet-only request in a browser without the API: the link to open elsewhere, ready to copy. */}
          <div id="wallet-elsewhere" class="field" hidden>
            <label for="wallet-link">{t("wallet.link")}</label>
            <input id="wallet-link" type="url" readonly />
            <button type="button" class="btn block mt" id="wallet-copy">
              {t("wallet.copy")}
            </button>
            <p id="wallet-copied" class="muted" role="status"></p>
          </div>
          <p class="muted mt" id="wallet-or" hidden>
            {t("wallet.or_account")}
          </p>
        </section>

        <div id="account-notice" class="notice info" role="status" hidden></div>

        <section id="step-account" class="card" hidden aria-label={t("account.label")}>
          <div class="tabs" role="tablist" aria-label={t("progress.account")}>
            <button type="button" role="tab" id="tab-register" aria-controls="panel-register" aria-selected="true">
              {t("account.register")}
            </button>
            <button type="button" role="tab" id="tab-login" aria-controls="panel-login" aria-selected="false" tabindex={-1}>
              {t("account.login")}
            </button>
          </div>
          <div id="panel-register" role="tabpanel" aria-labelledby="tab-register">
            <form id="register-form" novalidate>
              <FormNotice />
              <Field form="register" name="email" label={t("account.email")} type="email" autocomplete="email" required />
              <Field
                form="register"
                name="password"
                label={t("account.password")}
                type="password"
                autocomplete="new-password"
                required
                hint={t("account.password.hint")}
              />
              <button type="submit" class="btn block">
                {t("account.register.submit")}
              </button>
              <p class="muted mt">{t("account.register.mail")}</p>
            </form>
          </div>
          <div id="panel-login" role="tabpanel" aria-labelledby="tab-login" hidden>
            <form id="login-form" novalidate>
              <FormNotice />
              <Field form="login" name="email" label={t("account.email")} type="email" autocomplete="email" required />
              <Field form="login" name="password" label={t("account.password")} type="password" autocomplete="current-password" required />
              <button type="submit" class="btn block">
                {t("account.login.submit")}
              </button>
            </form>
            <ForgotPasswordForm texts={{ summary: t("forgot.summary"), email: t("forgot.email"), submit: t("forgot.submit") }} />
          </div>
        </section>

        <section id="step-kyc" class="card" hidden aria-labelledby="kyc-title">
          <h2 id="kyc-title" tabindex={-1}>
            {t("kyc.title")}
          </h2>
          <p class="muted">{t("kyc.text")}</p>
          <div id="kyc-notice" class="notice error" hidden></div>
          {sandbox ? (
            <p class="notice warn">
              <span class="sandbox-badge">{t("kyc.sandbox.badge")}</span> {t("kyc.sandbox.notice")}
            </p>
          ) : null}
          <form id="applicant-form" novalidate hidden>
            <FormNotice />
            {/* Shown when the form reopens after a refused check, to correct a mistyped name or date (docs/end-user-apps.md). */}
            <p id="applicant-correct-intro" class="muted" hidden>
              {t("kyc.correct.intro")}
            </p>
            <div class="row">
              <Field form="applicant" name="firstName" label={t("kyc.first_name")} autocomplete="given-name" required />
              <Field form="applicant" name="lastName" label={t("kyc.last_name")} autocomplete="family-name" required />
            </div>
            <DateOfBirthField form="applicant" t={t} />
            {sandbox ? <SandboxResultSelect form="applicant" t={t} /> : null}
            <button type="submit" class="btn block">
              {sandbox ? t("kyc.submit.sandbox") : t("kyc.submit.onfido")}
            </button>
          </form>
          {sandbox ? (
            <form id="sandbox-form" novalidate hidden>
              <FormNotice />
              <SandboxResultSelect form="sandbox" t={t} />
              <button type="submit" class="btn block">
                {t("kyc.sandbox.submit")}
              </button>
            </form>
          ) : (
            <div id="onfido-panel" hidden>
              <p id="onfido-status" class="muted" role="status"></p>
              <button type="button" class="btn block" id="onfido-start">
                {t("kyc.onfido.start")}
              </button>
              <div id="onfido-mount"></div>
            </div>
          )}
          <button type="button" class="btn block secondary" id="kyc-correct" hidden>
            {t("kyc.correct")}
          </button>
        </section>

        <section id="step-decide" class="card" hidden aria-labelledby="decide-title">
          <h2 id="decide-title" tabindex={-1}>
            {t("decide.title")}
          </h2>
          {/* Said once, right after the identity check on this page succeeded: the step the person just finished. */}
          <p id="decide-verified" class="notice ok" role="status" hidden>
            {t("decide.verified")}
          </p>
          <p id="decide-intro"></p>
          <ul class="shares" id="decide-shares">
            <li class="yes" id="share-age"></li>
            <li class="yes">{t("decide.share_checked")}</li>
            <li class="no">{t("decide.share_not")}</li>
          </ul>
          <PasskeyRequired />
          <p id="decide-underage" class="notice warn" role="status" hidden></p>
          <p id="decide-anonymous" class="notice info" hidden>
            {t("decide.anonymous")}
          </p>
          <div id="decide-notice" class="notice error" hidden></div>
          <div class="actions">
            <button type="button" class="btn block" id="approve"></button>
            <button type="button" class="btn block secondary" id="decline">
              {t("decide.decline")}
            </button>
          </div>
        </section>
        <DoubleBlindSection t={t} />

        <PasskeyOffer t={t} />
        <PasskeySettings t={t} />

        <section id="step-result" class="card result" hidden aria-live="polite">
          {/* A test session's results say so in words (docs/end-user-apps.md): nothing was verified, nothing real was sent. */}
          <p id="result-test" class="notice warn" hidden>
            <span class="sandbox-badge">{t("test.badge")}</span> <span id="result-test-text"></span>
          </p>
          <div class="result-icon" id="result-icon" aria-hidden="true">
            <ResultIcons />
          </div>
          {/* biome-ignore lint/a11y/useHeadingContent: verify.browser.js writes the result before the step is shown */}
          <h1 id="result-title" tabindex={-1}></h1>
          <p id="result-text"></p>
          <p class="muted mono" id="result-receipt"></p>
          {/* The merchant's return_url with session_id appended, on every result screen; without one, "you can close this page". */}
          {/* biome-ignore lint/a11y/useValidAnchor: verify.browser.js gives it the return_url and its words, and shows it only then */}
          {/* biome-ignore lint/a11y/useAnchorContent: as above: its words come with its href */}
          <a class="btn block" id="result-return" rel="noreferrer" hidden></a>
          <p class="muted" id="result-close" hidden>
            {t("result.close")}
          </p>
        </section>

        <p class="footer">{t("page.footer")}</p>
      </main>
    </Layout>
  );
}

function SandboxResultSelect({ form, t }: { form: string; t: (key: TextKey) => string }) {
  return (
    <div class="field">
      <label for={`${form}-result`}>{t("kyc.sandbox.result")}</label>
      <select id={`${form}-result`} name="result">
        <option value="clear">{t("kyc.sandbox.clear")}</option>
        <option value="consider">{t("kyc.sandbox.consider")}</option>
      </select>
      <p class="field-error" data-error-for="result" hidden></p>
    </div>
  );
}
