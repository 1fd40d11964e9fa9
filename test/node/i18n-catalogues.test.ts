/// <reference types="vite/client" />
// The non-English page catalogues are static assets (public/i18n/<lang>.json, read by the Worker through
// its ASSETS binding: src/web/i18n/load-catalogue.ts), generated from the authored, type-checked
// src/web/i18n/<lang>.ts. This test writes each one's JSON and compares it with the checked-in file, so a
// catalogue edited without regenerating fails here. `npm run i18n` runs this same test with --update,
// which writes the files. English stays in the script: it has no file.
import { describe, expect, it } from "vitest";
import type { Locale } from "../../src/db/schema";
import { de } from "../../src/web/i18n/de";
import type { Catalogue } from "../../src/web/i18n/en";
import { es } from "../../src/web/i18n/es";
import { fr } from "../../src/web/i18n/fr";
import { it as italian } from "../../src/web/i18n/it";

// Every locale but English, checked by the type: a new language without a file does not compile.
const SERVED: Record<Exclude<Locale, "en">, Catalogue> = { fr, de, es, it: italian };

// Node's modules, loaded untyped: the project's type-check sees the Workers types, not Node's.
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);

describe("the page catalogues as static assets", () => {
  it.each(Object.entries(SERVED))("public/i18n/%s.json is generated from its src/web/i18n catalogue", async (locale, catalogue) => {
    await expect(`${JSON.stringify(catalogue, null, 2)}\n`).toMatchFileSnapshot(`../../public/i18n/${locale}.json`);
  });

  // (Each file's presence is the snapshot's check above; --update writes a new one only after the run.)
  it("public/i18n holds no other file: no English, no language that is gone", async () => {
    const [fs, { fileURLToPath }] = await Promise.all(["node:fs", "node:url"].map(node));
    const names: string[] = fs.readdirSync(fileURLToPath(new URL("../../public/i18n/", import.meta.url)));
    expect(names.filter((name) => !Object.hasOwn(SERVED, name.replace(/\.json$/, "")))).toEqual([]);
  });
});
