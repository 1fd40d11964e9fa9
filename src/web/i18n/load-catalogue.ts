// The page's catalogue. English is bundled: the reference, and the fallback. The other languages are not
// part of the Worker's script (the 120 KiB gzip budget, docs/performance.md): they are static assets,
// public/i18n/<lang>.json, generated from the authored src/web/i18n/<lang>.ts by `npm run i18n`
// (test/node/i18n-catalogues.test.ts checks them), and read here through the ASSETS binding once per
// isolate per language. A catalogue that cannot be read leaves the page in English, never a 500: the
// failure is logged once per isolate and language, and not cached, so the next page tries again.
import type { Locale } from "../../db/schema";
import { log } from "../../lib/log";
import { en, type Catalogue, type TextKey } from "./en";

/** What a page renders with: the language it speaks and that language's texts. */
export type PageLanguage = { locale: Locale; catalogue: Catalogue };

type Loads = { pending: Map<Locale, Promise<Catalogue>>; warned: Set<Locale> };

// Keyed by the binding, which workerd passes as the same object to every request of an isolate (as
// src/service.ts relies on): one read per isolate and language. A test's own binding gets its own.
const loads = new WeakMap<Fetcher, Loads>();

// The binding ignores the URL's host (Workers Static Assets binding): only the path names the file.
const assetUrl = (locale: Locale) => `https://assets.invalid/i18n/${locale}.json`;

const TEXT_KEYS = Object.keys(en) as TextKey[];

async function read(assets: Fetcher, locale: Locale): Promise<Catalogue> {
  const res = await assets.fetch(assetUrl(locale));
  if (!res.ok) throw new Error(`status ${res.status}`);
  const data: unknown = await res.json();
  if (typeof data !== "object" || data === null) throw new Error("not an object");
  const texts = data as Record<string, unknown>;
  const missing = TEXT_KEYS.filter((key) => typeof texts[key] !== "string");
  if (missing.length > 0) throw new Error(`missing ${missing.length} texts, first ${missing[0]}`);
  // Only the reference's keys, whatever else the file holds.
  return Object.fromEntries(TEXT_KEYS.map((key) => [key, texts[key]])) as Catalogue;
}

export async function catalogueFor(env: { ASSETS: Fetcher }, locale: Locale): Promise<PageLanguage> {
  if (locale === "en") return { locale, catalogue: en };
  let state = loads.get(env.ASSETS);
  if (!state) loads.set(env.ASSETS, (state = { pending: new Map(), warned: new Set() }));
  let pending = state.pending.get(locale);
  if (!pending) {
    pending = read(env.ASSETS, locale);
    state.pending.set(locale, pending);
  }
  try {
    return { locale, catalogue: await pending };
  } catch (error) {
    if (state.pending.get(locale) === pending) state.pending.delete(locale);
    if (!state.warned.has(locale)) {
      state.warned.add(locale);
      log("warn", "page catalogue unavailable, page served in English", {
        locale,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    return { locale: "en", catalogue: en };
  }
}
