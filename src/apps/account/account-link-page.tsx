// The pages that account mail links open (/account/verify-email, /account/reset-password,
// /account/confirm-email-change). The token arrives in the link's query, as the mail defines; the
// script takes it out of the address bar at once and sends it in a request body. They speak the
// browser's language (Accept-Language): the end user's catalogue, handed to account.js as data. No
// switcher: its link would carry no token, which the script has already removed from the address.
import { Field, FormNotice } from "../../web/form-field";
import { Brand, Layout, NoScript } from "../../web/layout";
import { translate } from "../../web/i18n/catalogue";
import { PageTexts } from "../../web/i18n/page-texts";
import type { TextKey } from "../../web/i18n/en";
import type { PageLanguage } from "../../web/i18n/load-catalogue";

export type AccountLinkKind = "verify-email" | "reset-password" | "confirm-email-change";

export function AccountLinkPage({ kind, language }: { kind: AccountLinkKind; language: PageLanguage }) {
  const { locale, catalogue } = language;
  const t = (key: TextKey) => translate(catalogue, key);
  const title = t(`link.${kind}.title`);
  return (
    <Layout title={title} lang={locale} scripts={["common.js", "account.js"]}>
      <PageTexts catalogue={catalogue} />
      <main id="account-app" data-kind={kind}>
        <div class="topbar">
          <Brand name={t("brand.name")} />
        </div>
        <NoScript text={t("page.noscript")} />
        <section class="card" aria-labelledby="account-title">
          <h1 id="account-title" tabindex={-1}>
            {title}
          </h1>
          <div id="account-status" class="notice info" role="status" hidden></div>
          {kind === "reset-password" ? (
            <form id="reset-form" novalidate>
              <FormNotice />
              <Field
                form="reset"
                name="newPassword"
                label={t("link.new_password")}
                type="password"
                autocomplete="new-password"
                required
                hint={t("link.new_password.hint")}
              />
              <button type="submit" class="btn block">
                {t("link.save")}
              </button>
            </form>
          ) : (
            <div id="account-working">
              <div class="spinner" aria-hidden="true"></div>
              <p class="muted center">{t("link.checking")}</p>
            </div>
          )}
          <p id="account-next" class="actions" hidden>
            <a class="btn secondary" id="account-console" href="/console" hidden>
              {t("link.console")}
            </a>
          </p>
        </section>
      </main>
    </Layout>
  );
}
