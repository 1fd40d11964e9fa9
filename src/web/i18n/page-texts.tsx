// The chosen language's texts, handed to the page's script as data (a JSON element: the CSP allows no
// inline script), and the visible language switcher.
import { raw } from "hono/html";
import { LOCALES, type Locale } from "../../db/schema";
import { LANGUAGE_NAMES } from "./catalogue";
import type { Catalogue } from "./en";

/** JSON inside <script> is raw text: only "<" could end it early, so it is escaped. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

export function PageTexts({ catalogue }: { catalogue: Catalogue }) {
  return (
    <script type="application/json" id="page-texts">
      {raw(scriptJson(catalogue))}
    </script>
  );
}

/** Links to the same page in each language (`lang=`), each named in its own language. */
export function LanguageSwitcher({ locale, catalogue, link }: { locale: Locale; catalogue: Catalogue; link: Record<string, string> }) {
  return (
    <nav class="languages" aria-label={catalogue["page.language"]}>
      {LOCALES.map((code) => (
        <a
          href={`?${new URLSearchParams({ ...link, lang: code }).toString()}`}
          lang={code}
          hreflang={code}
          aria-current={code === locale ? "true" : undefined}
        >
          {LANGUAGE_NAMES[code]}
        </a>
      ))}
    </nav>
  );
}
