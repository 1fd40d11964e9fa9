import { afterEach, describe, expect, it, vi } from "vitest";
import { runCallbacks, seedResolvedSession } from "../helpers/callbacks";
import { call, expectError } from "../helpers/http";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { newId } from "../../src/lib/ids";

afterEach(() => {
  vi.restoreAllMocks();
});

const path = (sessionId: string) => `/api/usage/sessions/${sessionId}/callbacks`;

describe("GET /api/usage/sessions/{id}/callbacks", () => {
  describe("happy", () => {
    it("lists the session's event with its webhook-id, type, state and every attempt", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant, { status: "DENIED" });
      vi.spyOn(globalThis, "fetch")
        .mockImplementationOnce(async () => new Response("busy", { status: 503 }))
        .mockImplementationOnce(async () => new Response("ok", { status: 200 }));
      await runCallbacks([message]);
      await runCallbacks([message]);

      const res = await call("GET", path(message.sessionId), { token: merchant.account.token });

      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toEqual({
        events: [
          {
            webhook_id: message.webhookId,
            type: "age_verification.session.denied",
            state: "delivered",
            attempts: [
              { at: expect.any(String), duration_ms: expect.any(Number), status_code: 503, error: null },
              { at: expect.any(String), duration_ms: expect.any(Number), status_code: 200, error: null },
            ],
          },
        ],
      });
      const [first, second] = res.body.data.events[0].attempts;
      expect(new Date(first.at).toISOString()).toBe(first.at);
      expect(second.at >= first.at).toBe(true);
    });

    it("shows a pending event with no attempt yet, and a failed one with its error kind", async () => {
      const merchant = await seedMerchant();
      const pending = await seedResolvedSession(merchant);
      const failed = await seedResolvedSession(merchant, { status: "EXPIRED" });
      vi.spyOn(globalThis, "fetch").mockImplementationOnce(async () => new Response(null, { status: 410 }));
      await runCallbacks([failed]);

      const pendingRes = await call("GET", path(pending.sessionId), { token: merchant.account.token });
      expect(pendingRes.body.data.events).toEqual([
        { webhook_id: pending.webhookId, type: "age_verification.session.approved", state: "pending", attempts: [] },
      ]);
      const failedRes = await call("GET", path(failed.sessionId), { token: merchant.account.token });
      expect(failedRes.body.data.events[0]).toMatchObject({ state: "failed", attempts: [{ status_code: 410, error: null }] });
    });
  });

  describe("error", () => {
    it("answers 404 for an unknown session and for an id of the wrong shape", async () => {
      const merchant = await seedMerchant();
      expectError(await call("GET", path(newId("ses")), { token: merchant.account.token }), 404, "NOT_FOUND");
      expectError(await call("GET", path("not-a-session"), { token: merchant.account.token }), 404, "NOT_FOUND");
      expectError(await call("GET", path(newId("key")), { token: merchant.account.token }), 404, "NOT_FOUND");
    });

    it("answers 401 without a valid Bearer token", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      expectError(await call("GET", path(message.sessionId)), 401, "UNAUTHORIZED");
      expectError(await call("GET", path(message.sessionId), { token: "not.a.jwt" }), 401, "UNAUTHORIZED");
      // An API key is not an account credential.
      expectError(await call("GET", path(message.sessionId), { apiKey: merchant.apiKey }), 401, "UNAUTHORIZED");
    });

    it("answers 403 to a personal account", async () => {
      const person = await seedAccount({ userType: "PERSONAL" });
      expectError(await call("GET", path(newId("ses")), { token: person.token }), 403, "BUSINESS_ACCOUNT_REQUIRED");
    });
  });

  describe("security", () => {
    it("answers 404 for another account's session, revealing nothing", async () => {
      const owner = await seedMerchant();
      // On the owner's shard, so that a read which forgot the account would meet the owner's rows.
      const other = await seedMerchant("other", "live", { shard: owner.shard });
      const message = await seedResolvedSession(owner);
      const res = await call("GET", path(message.sessionId), { token: other.account.token });
      expectError(res, 404, "NOT_FOUND");
      expect(res.text).not.toContain(message.webhookId);
    });

    it("never exposes the callback URL, the signing secret or the payload", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant, { callbackUrl: "https://merchant.example/private-hook" });
      vi.spyOn(globalThis, "fetch").mockImplementationOnce(async () => new Response("ok"));
      await runCallbacks([message]);
      const res = await call("GET", path(message.sessionId), { token: merchant.account.token });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain("private-hook");
      expect(res.text).not.toContain(merchant.signingSecret);
      expect(res.text).not.toContain(message.data.receipt_id!);
    });
  });
});
