// GET /verify: the page behind the merchant's QR code or tap link. Server-rendered shell with every
// step present and hidden; assets/verify.browser.js walks the end user through them with the JSON API.
import { Field, FormNotice } from "./form-field";
import { ForgotPasswordForm } from "./forgot-password-form";
import { Brand, Layout, NoScript } from "./layout";
import { ONFIDO_SDK_URL } from "./csp";
import { PasskeyOffer, PasskeyRequired, PasskeySettings } from "./passkey-sections";
import type { Locale } from "../db/schema";
import { LanguageSwitcher, PageTexts } from "./i18n/page-texts";
import { translate } from "./i18n/catalogue";
import type { TextKey } from "./i18n/en";

export type VerifyPageProps = { provider: "sandbox" | "onfido"; locale: Locale; link: { session_id: string; nonce: string } };

export function VerifyPage({ provider, locale, link }: VerifyPageProps) {
  const sandbox = provider !== "onfido";
  const t = (key: TextKey) => translate(locale, key);
  return (
    <Layout title={t("page.title")} lang={locale} scripts={["common.js", "passkeys.js", "verify.js"]}>
      <PageTexts locale={locale} />
      {/* The Onfido SDK is not loaded with the page: verify.js injects it from data-onfido-sdk only when
          the document check starts, so a verified user (or a failed request) never runs it. */}
      <main id="verify-app" data-provider={provider} data-onfido-sdk={sandbox ? undefined : ONFIDO_SDK_URL}>
        <div class="topbar">
          <Brand />
          <LanguageSwitcher locale={locale} link={link} />
          <button type="button" class="btn link" id="switch-account" hidden>
            Use another account
          </button>
        </div>
        <NoScript />

        <ol class="steps" id="progress" aria-label="Progress" hidden>
          <li id="progress-account">Account</li>
          <li id="progress-identity">Identity</li>
          <li id="progress-decision">Decision</li>
        </ol>

        <div id="banner" class="notice error" role="alert" hidden>
          <span id="banner-text"></span>{" "}
          <button type="button" class="btn small secondary" id="banner-retry">
            Try again
          </button>
        </div>

        <section id="step-loading" class="card" aria-busy="true">
          <div class="spinner" aria-hidden="true"></div>
          <p class="muted center">Loading the request…</p>
        </section>

        {/* Test mode (a session opened with a test key): no account and no identity check; the tester picks the outcome. */}
        <section id="step-test" class="card" hidden aria-labelledby="test-title">
          <p class="notice warn">
            <span class="sandbox-badge">Test mode</span> This is a test request: no identity is checked and no real
            answer is shared. Choose the outcome the website should receive.
          </p>
          <h1 id="test-title" tabindex={-1}>Choose the test outcome</h1>
          <div id="test-notice" class="notice error" hidden></div>
          <div class="actions">
            <button type="button" class="btn block" data-test-outcome="APPROVED">Approve as over age</button>
            <button type="button" class="btn block secondary" data-test-outcome="DENIED_UNDER_AGE">Approve as under age</button>
            <button type="button" class="btn block secondary" data-test-outcome="DENIED_REFUSED">Refuse</button>
            <button type="button" class="btn block secondary" data-test-outcome="EXPIRED">Let it expire</button>
          </div>
        </section>

        <section id="step-intro" class="card accent" hidden aria-labelledby="intro-title">
          <h1 id="intro-title" tabindex={-1}>{t("page.title")}</h1>
          <p class="muted" id="intro-valid"></p>
          <p class="lede">{t("intro.how")}</p>
          <button type="button" class="btn secondary" id="not-now">
            {t("intro.not_now")}
          </button>
        </section>

        <section id="step-decline" class="card" hidden aria-labelledby="decline-title">
          <h2 id="decline-title" tabindex={-1}>{t("decline.title")}</h2>
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
          <h1 class="request-title" id="request-title" tabindex={-1}></h1>
          <p class="muted" id="request-detail"></p>
          <p>
            <span class="countdown" id="countdown" role="timer" aria-live="off"></span>
          </p>
        </section>

        <div id="account-notice" class="notice info" role="status" hidden></div>

        <section id="step-account" class="card" hidden aria-label="Your account">
          <div class="tabs" role="tablist" aria-label="Account">
            <button type="button" role="tab" id="tab-register" aria-controls="panel-register" aria-selected="true">
              Create account
            </button>
            <button type="button" role="tab" id="tab-login" aria-controls="panel-login" aria-selected="false" tabindex={-1}>
              Sign in
            </button>
          </div>
          <div id="panel-register" role="tabpanel" aria-labelledby="tab-register">
            <form id="register-form" novalidate>
              <FormNotice />
              <Field form="register" name="email" label="Email" type="email" autocomplete="email" required />
              <Field
                form="register"
                name="password"
                label="Password"
                type="password"
                autocomplete="new-password"
                required
                hint="8 to 128 characters."
              />
              <button type="submit" class="btn block">
                Create account and continue
              </button>
              <p class="muted mt">We will email you a link to confirm your address.</p>
            </form>
          </div>
          <div id="panel-login" role="tabpanel" aria-labelledby="tab-login" hidden>
            <form id="login-form" novalidate>
              <FormNotice />
              <Field form="login" name="email" label="Email" type="email" autocomplete="email" required />
              <Field form="login" name="password" label="Password" type="password" autocomplete="current-password" required />
              <button type="submit" class="btn block">
                Sign in and continue
              </button>
            </form>
            <ForgotPasswordForm />
          </div>
        </section>

        <section id="step-kyc" class="card" hidden aria-labelledby="kyc-title">
          <h2 id="kyc-title" tabindex={-1}>Verify your identity</h2>
          <p class="muted">
            You do this once. Your date of birth is checked against an identity document; the website that asks never
            sees the document or the date.
          </p>
          <div id="kyc-notice" class="notice error" hidden></div>
          {sandbox ? (
            <p class="notice warn">
              <span class="sandbox-badge">Development sandbox</span> No document is checked here: the date of birth you
              enter is treated as verified. Production uses the identity provider's document capture instead.
            </p>
          ) : null}
          <form id="applicant-form" novalidate hidden>
            <FormNotice />
            <div class="row">
              <Field form="applicant" name="firstName" label="First name" autocomplete="given-name" required />
              <Field form="applicant" name="lastName" label="Last name" autocomplete="family-name" required />
            </div>
            <Field form="applicant" name="dob" label="Date of birth" type="date" autocomplete="bday" required hint="As on your identity document." />
            {sandbox ? <SandboxResultSelect form="applicant" /> : null}
            <button type="submit" class="btn block">
              {sandbox ? "Verify my identity (sandbox)" : "Continue to document check"}
            </button>
          </form>
          {sandbox ? (
            <form id="sandbox-form" novalidate hidden>
              <FormNotice />
              <SandboxResultSelect form="sandbox" />
              <button type="submit" class="btn block">
                Complete the sandbox check
              </button>
            </form>
          ) : (
            <div id="onfido-panel" hidden>
              <p id="onfido-status" class="muted" role="status"></p>
              <button type="button" class="btn block" id="onfido-start">
                Start the document check
              </button>
              <div id="onfido-mount"></div>
            </div>
          )}
        </section>

        <section id="step-decide" class="card" hidden aria-labelledby="decide-title">
          <h2 id="decide-title" tabindex={-1}>Your answer</h2>
          <p id="decide-intro"></p>
          <ul class="shares">
            <li class="yes" id="share-age"></li>
            <li class="yes">That this was checked against a verified identity document</li>
            <li class="no">Not your name, your date of birth, your email or your documents</li>
          </ul>
          <PasskeyRequired />
          <div id="decide-notice" class="notice error" hidden></div>
          <div class="actions">
            <button type="button" class="btn block" id="approve"></button>
            <button type="button" class="btn block secondary" id="decline">
              Decline
            </button>
          </div>
        </section>

        <PasskeyOffer />
        <PasskeySettings />

        <section id="step-result" class="card result" hidden aria-live="polite">
          <div class="result-icon" id="result-icon" aria-hidden="true">
            <ResultIcons />
          </div>
          <h1 id="result-title" tabindex={-1}></h1>
          <p id="result-text"></p>
          <p class="muted mono" id="result-receipt"></p>
          {/* The merchant's return_url with session_id appended, on every result screen; without one, "you can close this page". */}
          <a class="btn block" id="result-return" rel="noreferrer" hidden></a>
          <p class="muted" id="result-close" hidden>
            {t("result.close")}
          </p>
        </section>

        <p class="footer">
          Your answer goes only to the website that asked. We keep no record of which websites you answered.
        </p>
      </main>
    </Layout>
  );
}

// Inline SVG, not emoji or symbol characters (which can render as an empty box); the script shows one.
const ICON_PATHS: Record<string, string[]> = {
  check: ["M5 12.5l4.5 4.5L19 7.5"],
  minus: ["M6 12h12"],
  cross: ["M7 7l10 10M17 7L7 17"],
  clock: ["M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16", "M12 8v4l3 2"],
  question: ["M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14", "M12 17.5h.01"],
};

function ResultIcons() {
  return (
    <>
      {Object.entries(ICON_PATHS).map(([name, paths]) => (
        <svg data-icon={name} viewBox="0 0 24 24" width="32" height="32" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round" focusable="false" hidden>
          {paths.map((d) => (
            <path d={d} />
          ))}
        </svg>
      ))}
    </>
  );
}

function SandboxResultSelect({ form }: { form: string }) {
  return (
    <div class="field">
      <label for={`${form}-result`}>Simulated check result</label>
      <select id={`${form}-result`} name="result">
        <option value="clear">Clear: the identity is verified</option>
        <option value="consider">Consider: the check fails</option>
      </select>
      <p class="field-error" data-error-for="result" hidden></p>
    </div>
  );
}
