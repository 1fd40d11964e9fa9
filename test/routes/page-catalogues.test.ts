// The non-English page catalogues are static assets read by the Worker through its ASSETS binding
// (src/web/i18n/load-catalogue.ts): once per isolate and language, a failed read not cached, and a page
// that cannot have its language is served in English with one warning, never a 500.
import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { de } from "../../src/web/i18n/de";
import { en } from "../../src/web/i18n/en";
import { fr } from "../../src/web/i18n/fr";
import { it as italian } from "../../src/web/i18n/it";
import { catalogueFor } from "../../src/web/i18n/load-catalogue";
import { seedMerchant } from "../helpers/seed";
import { SECURITY_HEADERS } from "../helpers/static-assets";
import { openSession } from "../helpers/sessions";

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** A binding of its own (so its own per-isolate cache) that records each path read; only fetch is called. */
function assets(respond: Fetch = (input, init) => env.ASSETS.fetch(input, init)) {
  const paths: string[] = [];
  const binding = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      paths.push(new URL(input instanceof Request ? input.url : input).pathname);
      return respond(input, init);
    },
  } as unknown as Fetcher;
  return { binding, paths };
}

function warnings() {
  const lines: string[] = [];
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe("catalogueFor", () => {
  it("reads a language from public/i18n through the binding, the authored catalogue exactly", async () => {
    expect(await catalogueFor(env, "fr")).toEqual({ locale: "fr", catalogue: fr });
  });

  it("English is bundled: no read", async () => {
    const { binding, paths } = assets();
    expect(await catalogueFor({ ASSETS: binding }, "en")).toEqual({ locale: "en", catalogue: en });
    expect(paths).toEqual([]);
  });

  it("reads each language once per binding, concurrent pages included", async () => {
    const { binding, paths } = assets();
    const [a, b] = await Promise.all([catalogueFor({ ASSETS: binding }, "de"), catalogueFor({ ASSETS: binding }, "de")]);
    const c = await catalogueFor({ ASSETS: binding }, "de");
    expect([a, b, c].map((l) => l.catalogue)).toEqual([de, de, de]);
    expect(paths).toEqual(["/i18n/de.json"]);
    await catalogueFor({ ASSETS: binding }, "it");
    expect(paths).toEqual(["/i18n/de.json", "/i18n/it.json"]);
  });

  it("a failed read gives English, warns once, and is not cached: the next page reads again", async () => {
    const lines = warnings();
    let failures = 2;
    const { binding, paths } = assets(async (input, init) => {
      if (failures-- === 2) return new Response("gone", { status: 503 });
      if (failures === 0) throw new Error("binding unavailable");
      return env.ASSETS.fetch(input, init);
    });
    expect(await catalogueFor({ ASSETS: binding }, "it")).toEqual({ locale: "en", catalogue: en });
    expect(await catalogueFor({ ASSETS: binding }, "it")).toEqual({ locale: "en", catalogue: en });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "warn", locale: "it", reason: "status 503" });
    expect(await catalogueFor({ ASSETS: binding }, "it")).toEqual({ locale: "it", catalogue: italian });
    expect(await catalogueFor({ ASSETS: binding }, "it")).toEqual({ locale: "it", catalogue: italian });
    expect(paths).toEqual(["/i18n/it.json", "/i18n/it.json", "/i18n/it.json"]);
  });

  it.each([
    ["a file missing a text", () => Response.json({ ...fr, "page.title": undefined })],
    ["a text that is not a string", () => Response.json({ ...fr, "page.title": 7 })],
    ["not JSON", () => new Response("<html>")],
    ["not an object", () => Response.json(null)],
  ])("%s is no catalogue: English", async (_name, body) => {
    const lines = warnings();
    const { binding } = assets(async () => body());
    expect(await catalogueFor({ ASSETS: binding }, "fr")).toEqual({ locale: "en", catalogue: en });
    expect(lines).toHaveLength(1);
  });
});

describe("a page whose language cannot be read", () => {
  const broken = () => ({ ...env, ASSETS: assets(async () => new Response("gone", { status: 500 })).binding });

  it("/verify is served in English, and says so", async () => {
    warnings();
    const merchant = await seedMerchant();
    const session = await openSession(merchant.apiKey);
    const res = await createApp().request(
      `/verify?session_id=${session.session_id}&nonce=${session.nonce}`,
      { headers: { "accept-language": "fr" } },
      broken(),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-language")).toBe("en");
    const html = await res.text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain("<title>Confirm your age</title>");
  });

  it.each(["/account/verify-email", "/verify?session_id=bad&nonce=bad"])("%s too", async (path) => {
    warnings();
    const res = await createApp().request(path, { headers: { "accept-language": "de" } }, broken());
    expect(res.status).toBe(path.startsWith("/verify") ? 404 : 200);
    expect(res.headers.get("content-language")).toBe("en");
    expect(await res.text()).toContain('<html lang="en"');
  });
});

describe("the catalogue files as the platform serves them", () => {
  it("are public JSON, briefly cacheable (their paths carry no hash), English not among them", async () => {
    const res = await env.ASSETS.fetch(new URL("/i18n/de.json", "https://age-verification.test"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    // The same security headers as the Worker's own JSON answers (data, not a page: src/http/secure-headers.ts).
    const health = await SELF.fetch("https://age-verification.test/api/health");
    for (const name of [...SECURITY_HEADERS, "content-security-policy"]) expect(res.headers.get(name), name).toBe(health.headers.get(name));
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(await res.json()).toEqual(de);
    expect((await env.ASSETS.fetch(new URL("/i18n/en.json", "https://age-verification.test"))).status).toBe(404);
  });
});
