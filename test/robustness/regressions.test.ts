// Every case the generated suites ever failed on, kept as a fixed test (named after the behaviour).
import { describe, expect, it } from "vitest";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { openSession } from "../helpers/sessions";
import { call, expectError } from "../helpers/http";
import { conformanceProblem, loadDocument } from "./openapi-walk";
import { snapshot } from "./requests";

const emptyJson = { rawBody: "", headers: { "content-type": "application/json" } };

describe("regressions found by the generated suites", () => {
  describe("an empty body under a JSON content type is no body", () => {
    it("is 422 with one item per missing field on a route that needs a body, and writes nothing", async () => {
      const before = await snapshot();
      const res = await call("POST", "/api/auth/register", { ...emptyJson, headers: { ...emptyJson.headers, "cf-connecting-ip": "192.0.2.77" } });
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
      await call("POST", "/api/kyc/create-applicant", { token: user.token, body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-04-01" } });
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
});
