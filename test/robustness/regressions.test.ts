// Every case the generated suites ever failed on, kept as a fixed test (named after the behaviour).
import { describe, expect, it } from "vitest";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { openSession } from "../helpers/sessions";
import { call, expectError } from "../helpers/http";
import { conformanceProblem, loadDocument } from "./openapi-walk";
import { snapshot } from "./requests";
import { callbackUrlProblem } from "../../src/domain/merchant-callbacks/callback-url";

const emptyJson = { rawBody: "", headers: { "content-type": "application/json" } };

describe("regressions found by the generated suites", () => {
  describe("an empty body under a JSON content type is no body", () => {
    it("is 422 with one item per missing field on a route that needs a body, and writes nothing", async () => {
      const before = await snapshot();
      const res = await call("POST", "/api/auth/register", {
        ...emptyJson,
        headers: { ...emptyJson.headers, "cf-connecting-ip": "192.0.2.77" },
      });
      expectError(res, 422, "VALIDATION_FAILED");
      expect(res.body.errors!.map((e) => e.path)).toEqual(expect.arrayContaining(["email", "password", "userType"]));
      expect(await snapshot()).toBe(before);
    });

    it("is 422, not 400 BAD_REQUEST, when answering a session", async () => {
      const merchant = await seedMerchant();
      const session = await openSession(merchant.apiKey);
      const user = await seedAccount({ userType: "PERSONAL" });
      const res = await call("POST", `/api/age-verification/session/${session.session_id}/complete`, { token: user.token, ...emptyJson });
      expectError(res, 422, "VALIDATION_FAILED");
    });

    it("takes the defaults on a route whose body is optional", async () => {
      const user = await seedAccount({ userType: "PERSONAL" });
      await call("POST", "/api/kyc/create-applicant", {
        token: user.token,
        body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-04-01" },
      });
      const res = await call("POST", "/api/kyc/sandbox/complete", { token: user.token, ...emptyJson });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe("VERIFIED");
    });

    it("still refuses a body that is only whitespace as malformed JSON", async () => {
      const res = await call("POST", "/api/auth/login", { rawBody: "  ", headers: { "content-type": "application/json" } });
      expectError(res, 400, "MALFORMED_JSON");
    });
  });

  describe("routes without a body document what the body guard answers", () => {
    it.each([
      ["POST", "/api/auth/logout"],
      ["POST", "/api/auth/resend-verification"],
      ["DELETE", "/api/users/account"],
      ["DELETE", "/api/keys/{id}"],
    ])("%s %s documents 400, 413 and 415 with their codes", async (method, path) => {
      const { operations } = await loadDocument();
      const op = operations.find((o) => o.key === `${method} ${path}`)!;
      const account = await seedAccount();
      const url = path.replace("{id}", "key_AAAAAAAAAAAAAAAAAAAAAAAA");
      const cases = [
        { rawBody: "{", headers: { "content-type": "application/json" } },
        { rawBody: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } },
        { rawBody: JSON.stringify({ pad: "x".repeat(70_000) }), headers: { "content-type": "application/json" } },
      ];
      for (const options of cases) {
        const res = await call(method, url, { token: account.token, ...options });
        expect([400, 413, 415]).toContain(res.status);
        expect(await conformanceProblem(op, res)).toBeNull();
      }
      // Nothing happened: the token still works (logout and deletion were not performed).
      expect((await call("GET", "/api/users/me", { token: account.token })).status).toBe(200);
    });
  });

  describe("callback URLs the SSRF properties found accepted", () => {
    it.each([
      "https://localhost./hook", // trailing dot: the same name as localhost
      "https://api.localhost../hook",
      "https://[::ffff:0:0.0.0.0]/", // IPv4-translated ::ffff:0:0/96
      "https://[::ffff:0:127.0.0.1]/",
      "https://[::ffff:0:10.1.2.3]/",
      "https://[2002:0:0:0:0:0:0:0]/", // 6to4, embeds 0.0.0.0
      "https://[2002:7f00:1::1]/", // 6to4 of 127.0.0.1
      "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", // Teredo
      "https://[64:ff9b:1::a00:1]/", // local-use NAT64
      "https://[100::1]/", // discard-only
      "https://[3fff::1]/", // documentation (RFC 9637)
      "https://[5f00::1]/", // SRv6
      "https://192.88.99.1/", // 6to4 relay anycast
    ])("refuses %s", (url) => {
      expect(callbackUrlProblem(url, { allowLocalHttp: false })).toEqual(expect.any(String));
    });

    it("refuses them through the endpoint too, with nothing written", async () => {
      const merchant = await seedMerchant();
      const before = await snapshot();
      const res = await call("POST", "/api/age-verification/session", {
        apiKey: merchant.apiKey,
        body: { age_required: 18, callback_url: "https://localhost./hook" },
      });
      expectError(res, 422, "VALIDATION_FAILED");
      expect(res.body.errors).toEqual([{ path: "callback_url", message: expect.any(String) }]);
      expect(await snapshot()).toBe(before);
    });
  });
});
