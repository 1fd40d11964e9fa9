// The drop-in's script as the platform serves it (public/_headers): loadable as a module script from a
// merchant's origin (CORS, a cross-origin resource policy), cached 5 minutes at its plain path (merchants
// link it without the ?v= hash, and a deploy changes it), with every security header the other assets carry.
import { describe, expect, it } from "vitest";
import { ASSET_VERSIONS } from "../../src/web/assets/versions";
import { asset, SECURITY_HEADERS } from "../helpers/static-assets";

describe("GET /assets/age-verification.browser.js", () => {
  it("is a JavaScript module any origin may load, cached 5 minutes", async () => {
    const res = await asset(`/assets/age-verification.browser.js?v=${ASSET_VERSIONS["age-verification.browser.js"]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    for (const name of SECURITY_HEADERS) expect(res.headers.get(name), name).toBeTruthy();
    expect(res.text).toContain('customElements.define("age-verification"');
  });

  it("the other assets stay same-origin and immutable", async () => {
    const res = await asset("/assets/verify.browser.js");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});
