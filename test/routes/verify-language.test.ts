// The end user's page language (docs/end-user-apps.md): the switcher's choice, else the session's `locale`, else
// Accept-Language, else English; and every key in every language.
import { runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../../src/db/schema";
import { chooseLocale, fromAcceptLanguage } from "../../src/web/i18n/catalogue";
import { de } from "../../src/web/i18n/de";
import { en, type Catalogue } from "../../src/web/i18n/en";
import { es } from "../../src/web/i18n/es";
import { fr } from "../../src/web/i18n/fr";
import { it as italian } from "../../src/web/i18n/it";
import { BASE, call } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { openSession, sessionObject } from "../helpers/sessions";

const page = (query: string, headers: Record<string, string> = {}) => SELF.fetch(`${BASE}/verify?${query}`, { headers });
const linkOf = (s: { session_id: string; nonce: string }) => `session_id=${s.session_id}&nonce=${s.nonce}`;
const langOf = (html: string) => /<html lang="(\w+)"/.exec(html)?.[1];
const textsOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-texts">(.*?)<\/script>/s.exec(html)![1]!) as Record<string, string>;

/** The authored catalogues (the pages read the non-English ones from public/i18n, generated from these). */
const AUTHORED: Record<(typeof LOCALES)[number], Catalogue> = { en, fr, de, es, it: italian };

/** Sets the merchant-integration fields on a stored session, as the open request will (docs/api-contract.md §Sessions). */
const setSessionFields = (sessionId: string, fields: Record<string, unknown>) =>
  runInDurableObject(sessionObject(sessionId), async (_instance, state) => {
    const current = await state.storage.get<Record<string, unknown>>("state");
    await state.storage.put("state", { ...current, ...fields });
  });

describe("the catalogue", () => {
  it("has every key in every language, none empty, with the same {named} values", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) {
      const catalogue = AUTHORED[locale];
      expect(Object.keys(catalogue).sort(), locale).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(catalogue)) {
        expect(text.trim(), `${locale} ${key}`).not.toBe("");
        expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(en[key as keyof typeof en]));
      }
    }
  });

  it("reads Accept-Language by weight and order, ignoring languages it does not speak", () => {
    expect(fromAcceptLanguage("fr-FR,fr;q=0.9,en;q=0.8")).toBe("fr");
    expect(fromAcceptLanguage("nl-NL, de;q=0.7, en;q=0.8")).toBe("en");
    expect(fromAcceptLanguage("es;q=0, it")).toBe("it");
    expect(fromAcceptLanguage("pt-BR,nl")).toBeNull();
    expect(fromAcceptLanguage(undefined)).toBeNull();
    expect(chooseLocale({ chosen: "it", session: "de", acceptLanguage: "fr" })).toBe("it");
    expect(chooseLocale({ chosen: "xx", session: "de", acceptLanguage: "fr" })).toBe("de");
    expect(chooseLocale({ session: null, acceptLanguage: "fr" })).toBe("fr");
    expect(chooseLocale({})).toBe("en");
  });
});

describe("GET /verify in the person's language", () => {
  it("speaks English by default, and French from Accept-Language", async () => {
    const merchant = await seedMerchant();
    const session = await openSession(merchant.apiKey);
    const english = await (await page(linkOf(session))).text();
    expect(langOf(english)).toBe("en");
    expect(textsOf(english)["intro.not_now"]).toBe("Not now");
    const res = await page(linkOf(session), { "accept-language": "fr-CH, fr;q=0.9, en;q=0.5" });
    expect(res.headers.get("content-language")).toBe("fr");
    const french = await res.text();
    expect(langOf(french)).toBe("fr");
    expect(french).toContain("<title>Confirmez votre âge</title>");
    expect(textsOf(french)).toEqual(fr);
  });

  it("speaks the session's locale over Accept-Language, and the switcher's choice over both", async () => {
    const merchant = await seedMerchant();
    const session = await openSession(merchant.apiKey);
    await setSessionFields(session.session_id, { locale: "de" });
    expect(langOf(await (await page(linkOf(session), { "accept-language": "fr" })).text())).toBe("de");
    expect(langOf(await (await page(`${linkOf(session)}&lang=es`, { "accept-language": "fr" })).text())).toBe("es");
    // A wrong nonce learns nothing from the session, not even its language.
    const wrong = await page(`session_id=${session.session_id}&nonce=${"z".repeat(43)}`, { "accept-language": "it" });
    expect(langOf(await wrong.text())).toBe("it");
  });

  it("links each language in the switcher, keeping the link's session and nonce", async () => {
    const merchant = await seedMerchant();
    const session = await openSession(merchant.apiKey);
    const html = await (await page(linkOf(session))).text();
    for (const code of LOCALES) {
      expect(html).toContain(`href="?session_id=${session.session_id}&amp;nonce=${session.nonce}&amp;lang=${code}"`);
    }
  });
});

describe("the preview carries the merchant's return_url and locale when the session has them", () => {
  it("passes them through", async () => {
    const merchant = await seedMerchant();
    const session = await openSession(merchant.apiKey);
    await setSessionFields(session.session_id, { returnUrl: "https://shop.example/back?x=1", locale: "it", livemode: false });
    const res = await call("GET", `/api/age-verification/session/${session.session_id}/preview`, {
      headers: { "x-session-nonce": session.nonce },
    });
    expect(res.body.data).toMatchObject({ return_url: "https://shop.example/back?x=1", locale: "it", livemode: false });
  });
});
