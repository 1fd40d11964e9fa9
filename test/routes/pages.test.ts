import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { contentSecurityPolicy, ONFIDO_SDK_URL } from "../../src/web/csp";
import { call } from "../helpers/http";
import { asset, SECURITY_HEADERS } from "../helpers/static-assets";

const STRICT =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const LINK = "/verify?session_id=ses_AAAAAAAAAAAAAAAAAAAAAAAA&nonce=abcDEF_123-xyz";
const PAGES = [LINK, "/console", "/account", "/account/verify-email", "/account/reset-password", "/account/confirm-email-change"];

const withProvider = (provider: string) => ({ ...env, PROVIDER: provider });
const assetUrls = (html: string) => [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);

describe("apps: happy", () => {
  it.each(PAGES)("%s is an HTML page under the strict CSP, never cached", async (path) => {
    const res = await call("GET", path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toBe(STRICT);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.text.startsWith("<!doctype html>")).toBe(true);
  });

  it("every stylesheet and script a page links is a static asset with its type, cached for good", async () => {
    for (const path of PAGES) {
      const page = await call("GET", path);
      const urls = assetUrls(page.text);
      expect(urls.length).toBeGreaterThanOrEqual(2);
      for (const url of urls) {
        const res = await asset(url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get("content-type")).toMatch(url.includes(".css") ? /^text\/css/ : /^(?:text|application)\/javascript/);
        expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        // The same security headers as the page that links it (the Worker's own answers).
        for (const name of SECURITY_HEADERS) expect(res.headers.get(name), `${url} ${name}`).toBe(page.headers.get(name));
      }
    }
  });

  it("the sandbox verification page labels its development form and loads no third-party script", async () => {
    const res = await call("GET", LINK);
    expect(res.text).toContain("Development sandbox");
    expect(res.text).not.toContain("onfido.com");
    expect(res.text).not.toContain("data-onfido-sdk");
  });

  it("with PROVIDER=onfido the page carries the pinned SDK URL but loads no SDK, and only its CSP allows Onfido", async () => {
    const app = createApp();
    const page = await app.request(LINK, {}, withProvider("onfido"));
    const html = await page.text();
    // Injected by verify.js when the document check starts, never with the page itself.
    expect(html).not.toMatch(/<script[^>]*onfido/);
    expect(html).toContain(`data-onfido-sdk="${ONFIDO_SDK_URL}"`);
    expect(ONFIDO_SDK_URL).toMatch(/^https:\/\/sdk\.onfido\.com\/v\d+\.\d+\.\d+$/);
    // The catalogue (data for the script) holds every text of the language; the markup shows no sandbox.
    expect(html.replace(/<script type="application\/json" id="page-texts">.*?<\/script>/s, "")).not.toContain("Development sandbox");
    expect(page.headers.get("content-security-policy")).toBe(contentSecurityPolicy({ onfido: true }));
    const console = await app.request("/console", {}, withProvider("onfido"));
    expect(console.headers.get("content-security-policy")).toBe(STRICT);
  });

  it("the Onfido-mode CSP is Onfido's published minimum, without 'unsafe-inline'", () => {
    const policy = contentSecurityPolicy({ onfido: true });
    const directives = Object.fromEntries(
      policy.split("; ").map((directive) => {
        const [name, ...sources] = directive.split(" ");
        return [name!, sources];
      }),
    );
    expect(directives["script-src"]).toEqual(["'self'", "https://sdk.onfido.com", "https://assets.onfido.com"]);
    expect(directives["style-src"]).toEqual(["'self'", "https://sdk.onfido.com"]);
    expect(directives["font-src"]).toEqual(["https://sdk.onfido.com"]);
    expect(directives["frame-src"]).toEqual(["https://sdk.onfido.com"]);
    expect(directives["connect-src"]).toEqual(
      expect.arrayContaining([
        "'self'",
        "https://api.onfido.com",
        "https://api.eu.onfido.com",
        "https://api.us.onfido.com",
        "https://api.ca.onfido.com",
      ]),
    );
    for (const name of ["img-src", "media-src", "worker-src"])
      expect(directives[name]).toEqual(expect.arrayContaining(["blob:", "https://sdk.onfido.com"]));
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toMatch(/(?:^|\s)http:/);
    // The page's own defaults stay: nothing framed it, no base or form target elsewhere.
    expect(directives["default-src"]).toEqual(["'none'"]);
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
  });

  it("the Onfido step loads the SDK on demand, submits the upload for checking and tears the SDK down", async () => {
    const app = createApp();
    const html = await (await app.request(LINK, {}, withProvider("onfido"))).text();
    const script = assetUrls(html).find((url) => url.startsWith("/assets/verify.browser.js"))!;
    const { text } = await asset(script);
    expect(text).toContain('getAttribute("data-onfido-sdk")');
    expect(text).toContain('"/api/kyc/submit"');
    expect(text).toContain("tearDown()");
  });
});

describe("apps: error", () => {
  it.each([
    "/verify",
    "/verify?session_id=ses_AAAAAAAAAAAAAAAAAAAAAAAA",
    "/verify?nonce=abc",
    "/verify?session_id=usr_AAAAAAAAAAAAAAAAAAAAAAAA&nonce=abc",
    "/verify?session_id=ses_AAAAAAAAAAAAAAAAAAAAAAAA&nonce=%3Cscript%3E",
  ])("a broken link %s gets a readable HTML page with 404, not the JSON envelope", async (path) => {
    const res = await call("GET", path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.text).toContain("This link is not valid");
    expect(res.headers.get("content-security-policy")).toBe(STRICT);
    expect(res.text).not.toContain("<script>");
  });

  it("an unknown asset is the JSON 404 envelope", async () => {
    const res = await call("GET", "/assets/missing.js");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: "NOT_FOUND" });
  });
});

describe("apps: security", () => {
  it.each(PAGES)("%s has no inline script, no inline style and no external origin", async (path) => {
    const { text } = await call("GET", path);
    // A JSON data element (the page's texts) is not a script: the browser never runs it.
    expect(text).not.toMatch(/<script(?![^>]*\b(?:src=|type="application\/json"))[^>]*>/);
    expect(text).not.toMatch(/\sstyle="/);
    expect(text).not.toMatch(/\son[a-z]+="/);
    expect(text).not.toMatch(/(?:src|href)="https?:/);
  });

  it("the development outbox is a page whose links can be clicked, text escaped", async () => {
    const email = `outbox-${Date.now()}@example.test`;
    expect(
      (await call("POST", "/api/auth/register", { body: { email, password: "person-password-1", userType: "PERSONAL" } })).status,
    ).toBe(201);
    const res = await call("GET", `/dev/outbox?to=${encodeURIComponent(email)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(STRICT);
    expect(res.text).toMatch(/<a href="https?:\/\/[^"]+\/account\/verify-email\?token=[^"]+">/);
    expect(res.text).not.toMatch(/<script/);
    // Another address's mail is not listed; a malformed one lists nothing.
    expect((await call("GET", "/dev/outbox?to=nobody%40example.test")).text).not.toContain("verify-email?token=");
    expect((await call("GET", "/dev/outbox?to=%3Cscript%3E")).text).not.toContain("<script>");
  });

  it("the page middleware does not leak onto the JSON API", async () => {
    const res = await call("GET", "/api/health");
    // The pages' policy is not the API's: data gets the frame's inert one (src/http/secure-headers.ts).
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    // (Its Cache-Control is no-store too, but from the JSON rule of src/http/no-store.ts, not from the pages.)
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("the client scripts write text, never HTML, and keep the token out of URLs and localStorage", async () => {
    const { text } = await call("GET", "/console");
    for (const url of assetUrls(text).filter((u) => u.includes(".js"))) {
      const script = (await asset(url)).text;
      expect(script, url).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
      expect(script, url).not.toContain("localStorage");
    }
    const verify = assetUrls((await call("GET", LINK)).text).filter((u) => u.includes(".js"));
    for (const url of verify) expect((await asset(url)).text).not.toMatch(/[?&]token=/);
  });
});
