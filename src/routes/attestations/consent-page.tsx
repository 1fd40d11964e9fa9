// The consent page of the authorization code flow (docs/attestations.md): what is asked (a batch of
// proof-of-age attestations, saying only "over 18"), where the code will go, and the person's sign-in,
// which approves; in the person's language (authorize-page.tsx chooses it), with the language switcher.
// The request itself stays in the page's address and the form's action. Without script, the form posts
// the email and password here (approve-on-page.tsx). With it, consent.browser.js signs in through the
// API instead, so that an account with a passkey confirms with it (passkeys.browser.js, as on /verify
// and /account), and sends the browser to the wallet. Only this service's scripts run here (its CSP).
import { Field } from "../../web/form-field";
import { translate } from "../../web/i18n/catalogue";
import type { TextKey } from "../../web/i18n/en";
import type { PageLanguage } from "../../web/i18n/load-catalogue";
import { LanguageSwitcher, PageTexts } from "../../web/i18n/page-texts";
import { Brand, Layout } from "../../web/layout";

export type ConsentPageProps = {
  language: PageLanguage;
  /** Where the code goes, as destinationOf (authorize-page.tsx) names it. */
  destination: string;
  /** The form's action: this page's own address, the request in its query. */
  action: string;
  /** The request's parameters, which the language switcher's links keep. */
  request: Record<string, string>;
  error?: TextKey;
  development?: boolean;
};

export function ConsentPage({ language, destination, action, request, error, development = false }: ConsentPageProps) {
  const { locale, catalogue } = language;
  const t = (key: TextKey) => translate(catalogue, key);
  // One sentence with the destination inside it, the destination set apart so that it cannot be missed.
  const [before = "", after = ""] = catalogue["consent.destination"].split("{destination}");
  return (
    <Layout title={t("consent.title")} lang={locale} styles={["account.css"]} scripts={["common.js", "passkeys.js", "consent.js"]}>
      <PageTexts catalogue={catalogue} />
      <main id="consent-app" data-busy-words={t("busy.sending")} data-development={development ? "true" : undefined}>
        <div class="topbar">
          <Brand name={t("brand.name")} />
          <LanguageSwitcher locale={locale} catalogue={catalogue} link={request} />
        </div>
        <section class="card accent" aria-labelledby="consent-title">
          <h1 id="consent-title">{t("consent.title")}</h1>
          <p>{t("consent.asks")}</p>
          <p>
            {before}
            <strong data-destination>{destination}</strong>
            {after}
          </p>
          <p class="notice warn">{t("consent.own")}</p>
          <form id="consent-form" method="post" action={action}>
            {error ? (
              <p class="notice error" role="alert" data-error>
                {t(error)}
              </p>
            ) : (
              <div class="notice error" role="alert" hidden></div>
            )}
            <Field form="consent" name="email" label={t("account.email")} type="email" autocomplete="username" required />
            <Field form="consent" name="password" label={t("account.password")} type="password" autocomplete="current-password" required />
            <button type="submit" class="btn block">
              {t("consent.submit")}
            </button>
          </form>
          <p class="muted">{t("consent.passkey")}</p>
        </section>
      </main>
    </Layout>
  );
}
