// What a verification link with a missing or malformed session_id or nonce opens, in the browser's language.
import { Brand, Layout } from "../../web/layout";
import { translate } from "../../web/i18n/catalogue";
import type { PageLanguage } from "../../web/i18n/load-catalogue";

export function InvalidLinkPage({ language: { locale, catalogue } }: { language: PageLanguage }) {
  const title = translate(catalogue, "result.invalid.title");
  return (
    <Layout title={title} lang={locale} styles={["verify.css"]} scripts={[]}>
      <main>
        <div class="topbar">
          <Brand />
        </div>
        <section class="card result" data-result="invalid">
          <div class="result-icon bad" aria-hidden="true">
            ?
          </div>
          <h1>{title}</h1>
          <p>{translate(catalogue, "invalid_link.text")}</p>
        </section>
      </main>
    </Layout>
  );
}
