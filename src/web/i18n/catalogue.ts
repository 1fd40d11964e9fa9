// The end user's pages speak the session's `locale` when the merchant set one (docs/api-contract.md §Sessions), else the
// browser's Accept-Language, else English; `?lang=` (the page's switcher) overrides both. The texts
// themselves: English is bundled, the other languages are static assets (src/web/i18n/load-catalogue.ts).
import { LOCALES, type Locale } from "../../db/schema";
import type { Catalogue, TextKey } from "./en";

/** Each language named in itself, for the switcher. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", fr: "Français", de: "Deutsch", es: "Español", it: "Italiano" };

export const isLocale = (value: unknown): value is Locale => typeof value === "string" && (LOCALES as readonly string[]).includes(value);

/** The best of our languages for an Accept-Language header (RFC 9110 §12.5.4: by q, then by order). */
export function fromAcceptLanguage(header: string | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { primary: tag.trim().toLowerCase().split("-")[0]!, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.primary).find(isLocale) ?? null;
}

export function chooseLocale(choice: { chosen?: string | null; session?: string | null; acceptLanguage?: string }): Locale {
  if (isLocale(choice.chosen)) return choice.chosen;
  if (isLocale(choice.session)) return choice.session;
  return fromAcceptLanguage(choice.acceptLanguage) ?? "en";
}

/** A text of the page's catalogue with its {named} values filled in. */
export function translate(catalogue: Catalogue, key: TextKey, values: Record<string, string | number> = {}): string {
  return catalogue[key].replace(/\{(\w+)\}/g, (_all, name: string) => String(values[name] ?? `{${name}}`));
}
