// What a verification link with a missing or malformed session_id or nonce opens, in the browser's
// language: the same screen, words and icon as /verify's own "link is not valid" result (a wrong nonce),
// so a broken link looks one way however it is broken (docs/end-user-apps.md).
import { Brand, Layout } from "../../web/layout";
import { translate } from "../../web/i18n/catalogue";
import type { PageLanguage } from "../../web/i18n/load-catalogue";
import { ResultIcons } from "./result-icons";

export function InvalidLinkPage({ language: { locale, catalogue } }: { language: PageLanguage }) {
  const title = translate(catalogue, "result.invalid.title");
  return (
    <Layout title={title} lang={locale} styles={["verify.css"]} scripts={[]}>
      <main class="invalid-link">
        <div class="topbar">
          <Brand name={translate(catalogue, "brand.name")} />
        </div>
        <section class="card result" data-result="invalid">
          <div class="result-icon bad" aria-hidden="true">
            <ResultIcons shown="question" />
          </div>
          <h1>{title}</h1>
          <p>{translate(catalogue, "result.invalid.text")}</p>
          <p class="muted">{translate(catalogue, "result.close")}</p>
        </section>
      </main>
    </Layout>
  );
}
