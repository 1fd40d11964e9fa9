// What a verification link with a missing or malformed session_id or nonce opens, in the browser's language.
import { Brand, Layout } from "./layout";
import type { Locale } from "../db/schema";
import { translate } from "./i18n/catalogue";

export function InvalidLinkPage({ locale }: { locale: Locale }) {
  const title = translate(locale, "result.invalid.title");
  return (
    <Layout title={title} lang={locale} scripts={[]}>
      <main>
        <div class="topbar">
          <Brand />
        </div>
        <section class="card result" data-result="invalid">
          <div class="result-icon bad" aria-hidden="true">
            ?
          </div>
          <h1>{title}</h1>
          <p>{translate(locale, "invalid_link.text")}</p>
        </section>
      </main>
    </Layout>
  );
}
