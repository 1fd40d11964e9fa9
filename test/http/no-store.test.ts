// Cache-Control: no-store on every JSON answer (docs/security-privacy.md): the key-creation answer carries the API key
// and the signing secret, which no cache may keep; refusals and the 404 envelope too. The walk over every
// route of the OpenAPI document checks it as well (test/robustness/valid-responses.test.ts).
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { asset } from "../helpers/static-assets";
import { seedAccount } from "../helpers/seed";

describe("Cache-Control: no-store", () => {
  it("a new API key and its signing secret are answered with no-store", async () => {
    const account = await seedAccount();
    const res = await call("POST", "/api/keys", { token: account.token, body: { name: "shop" } });
    expect(res.status).toBe(201);
    expect(res.body.data.signingSecret).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("error envelopes (401, 404 of an unknown route, 422) are no-store too", async () => {
    const account = await seedAccount();
    for (const res of [
      await call("GET", "/api/users/me"),
      await call("GET", "/api/no-such-route"),
      await call("POST", "/api/keys", { token: account.token, body: { name: "" } }),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("the health answer is JSON, so no-store as well", async () => {
    expect((await call("GET", "/api/health")).headers.get("cache-control")).toBe("no-store");
  });

  it("the OpenAPI document, a static file the same for everyone until the next deploy, is cached for 5 minutes", async () => {
    const res = await asset("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
  });
});
