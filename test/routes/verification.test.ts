import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { callbackEvents, verificationSessions } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { seedAccount, seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, CALLBACK_URL, complete, openSession, poll } from "../helpers/sessions";
import { countAllShards, dbOfAccount, dbOfSession } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const eventsOf = async (sessionId: string) =>
  (await dbOfSession(sessionId)).select().from(callbackEvents).where(eq(callbackEvents.sessionId, sessionId));
const sessionCount = () => countAllShards("SELECT count(*) AS n FROM verification_sessions");

describe("open and poll", () => {
  it("opens a session and polls it PENDING with the contract's null fields", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey, 21);
    expect(opened.session_id).toMatch(/^ses_[\w-]{24}$/);
    expect(opened.nonce).toMatch(/^[\w-]{43}$/);
    expect(opened.age_required).toBe(21);
    const ttl = Date.parse(opened.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(1790_000);
    expect(ttl).toBeLessThanOrEqual(1800_000);
    const res = await poll(merchant.apiKey, opened.session_id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      session_id: opened.session_id,
      status: "PENDING",
      above_age_required: false,
      assurance: null,
      receipt_id: null,
      age_required: 21,
      expires_at: opened.expires_at,
      resolved_at: null,
      reference: null,
      metadata: null,
      livemode: true,
      holder_binding: null,
      denial_reason: null,
      accepted_assurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"],
      double_blind: false,
      receipt: null,
    });
    const row = await rowWhere(await dbOfSession(opened.session_id), verificationSessions, eq(verificationSessions.id, opened.session_id));
    expect(row).toMatchObject({ accountId: merchant.account.id, keyId: merchant.keyId, status: "PENDING", ageRequired: 21 });
  });

  it.each([
    ["no key", undefined],
    ["a malformed key", "svc_sk_short"],
    ["an unknown key", `svc_sk_${"A".repeat(43)}`],
  ])("refuses %s with 401", async (_label, apiKey) => {
    const res = await call("POST", "/api/age-verification/session", { apiKey, body: { age_required: 18, callback_url: CALLBACK_URL } });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it.each([
    ["age_required", { age_required: "18", callback_url: CALLBACK_URL }],
    ["age_required", { age_required: 0, callback_url: CALLBACK_URL }],
    ["age_required", { age_required: 151, callback_url: CALLBACK_URL }],
    ["age_required", { age_required: 18.5, callback_url: CALLBACK_URL }],
    ["age_required", { callback_url: CALLBACK_URL }],
    ["callback_url", { age_required: 18 }],
    ["callback_url", { age_required: 18, callback_url: "http://merchant.example.com/cb" }],
    ["callback_url", { age_required: 18, callback_url: "https://10.0.0.1/x" }],
    ["callback_url", { age_required: 18, callback_url: "https://[::1]/" }],
    ["callback_url", { age_required: 18, callback_url: "https://user:pw@host.example/" }],
    ["callback_url", { age_required: 18, callback_url: "/relative" }],
  ])("answers 422 naming %s and opens nothing", async (path, body) => {
    const merchant = await seedMerchant();
    const before = await sessionCount();
    const res = await call("POST", "/api/age-verification/session", { apiKey: merchant.apiKey, body });
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors!.map((e) => e.path)).toContain(path);
    expect(await sessionCount()).toBe(before);
  });

  it("answers 404 with the same body for another merchant's session, an unknown id and a malformed id", async () => {
    const owner = await seedMerchant();
    // On the owner's shard, so that a read which forgot the account would meet the owner's rows.
    const other = await seedMerchant("other", "live", { shard: owner.shard });
    const opened = await openSession(owner.apiKey);
    const foreign = await poll(other.apiKey, opened.session_id);
    const unknown = await poll(other.apiKey, `ses_${"A".repeat(24)}`);
    const malformed = await poll(other.apiKey, "not-a-session");
    expectError(foreign, 404, "NOT_FOUND");
    expect(unknown.body).toEqual(foreign.body);
    expect(malformed.body).toEqual(foreign.body);
  });

  it("sends no CORS headers on the API-key routes, even to a browser origin", async () => {
    const merchant = await seedMerchant();
    const res = await call("POST", "/api/age-verification/session", {
      apiKey: merchant.apiKey,
      body: { age_required: 18, callback_url: CALLBACK_URL },
      headers: { origin: "https://shop.example.com" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await call("OPTIONS", "/api/age-verification/session", {
      headers: { origin: "https://shop.example.com", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("end-user request and completion", () => {
  it("shows the request with the right nonce, naming the merchant", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey, 18);
    const res = await call("GET", `/api/age-verification/session/${opened.session_id}/request?nonce=${opened.nonce}`, {
      token: user.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      session_id: opened.session_id,
      age_required: 18,
      merchant_name: merchant.account.companyName,
      status: "PENDING",
      expires_at: opened.expires_at,
      livemode: true,
      locale: null,
      return_url: null,
      require_passkey: false,
      accepted_assurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"],
      double_blind: false,
      meets_age_required: true,
    });
    // The verification page takes the server's time from it for the countdown.
    expect(Math.abs(Date.parse(res.headers.get("date")!) - Date.now())).toBeLessThan(5_000);
  });

  it("tells the signed-in person whether their verified age meets the request, before they answer (null before any check)", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey, 21);
    const read = async (token: string) =>
      (
        await call("GET", `/api/age-verification/session/${opened.session_id}/request`, {
          token,
          headers: { "x-session-nonce": opened.nonce },
        })
      ).body.data.meets_age_required;
    const today = new Date();
    const yearsAgo = (years: number, days = 0) =>
      new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() - days)).toISOString().slice(0, 10);
    expect(await read((await seedEndUser(yearsAgo(21))).token)).toBe(true); // 21 today
    expect(await read((await seedEndUser(yearsAgo(21, -1))).token)).toBe(false); // 21 tomorrow
    expect(await read((await seedAccount({ userType: "PERSONAL" })).token)).toBeNull();
    // The read changes nothing: the session is still open for the person under the age to decline.
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe("PENDING");
  });

  it("answers a wrong or missing nonce and an unknown session with 404, and needs a signed-in user", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    const path = `/api/age-verification/session/${opened.session_id}`;
    const wrongNonce = opened.nonce.slice(0, -1) + (opened.nonce.endsWith("A") ? "B" : "A");
    expectError(await call("GET", `${path}/request?nonce=${wrongNonce}`, { token: user.token }), 404, "NOT_FOUND");
    expectError(
      await call("GET", `/api/age-verification/session/ses_${"B".repeat(24)}/request?nonce=${opened.nonce}`, { token: user.token }),
      404,
      "NOT_FOUND",
    );
    expectError(await call("GET", `${path}/request`, { token: user.token }), 422, "VALIDATION_FAILED");
    expectError(await call("GET", `${path}/request?nonce=${opened.nonce}`), 401, "UNAUTHORIZED");
    expectError(await complete(user.token, opened.session_id, "wrong-nonce"), 404, "NOT_FOUND");
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe("PENDING");
  });

  it("approves someone whose 18th birthday is today, with a receipt and one callback event", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(18));
    const opened = await openSession(merchant.apiKey, 18);
    const res = await complete(user.token, opened.session_id, opened.nonce);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", above_age_required: true, assurance: "KYC_VERIFIED" });
    expect(res.body.data.receipt_id).toMatch(/^rcpt_/);
    const polled = await poll(merchant.apiKey, opened.session_id);
    expect(polled.body.data).toEqual(res.body.data);
    const events = await eventsOf(opened.session_id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "age_verification.session.approved", id: expect.stringMatching(/^msg_/) });
    const row = await rowWhere(await dbOfSession(opened.session_id), verificationSessions, eq(verificationSessions.id, opened.session_id));
    expect(row).toMatchObject({
      status: "APPROVED",
      aboveAgeRequired: true,
      receiptId: res.body.data.receipt_id,
      resolvedAt: res.body.data.resolved_at,
    });
  });

  it("denies someone one day short of the age, and a refusal", async () => {
    const merchant = await seedMerchant();
    const young = await seedEndUser(birthdayToday(18, 1));
    const first = await openSession(merchant.apiKey, 18);
    const denied = await complete(young.token, first.session_id, first.nonce);
    expect(denied.body.data).toMatchObject({ status: "DENIED", above_age_required: false, assurance: "KYC_VERIFIED" });
    expect(denied.body.data.receipt_id).toMatch(/^rcpt_/);
    const adult = await seedEndUser("1970-05-05");
    const second = await openSession(merchant.apiKey, 18);
    const refused = await complete(adult.token, second.session_id, second.nonce, false);
    expect(refused.body.data).toMatchObject({ status: "DENIED", above_age_required: false });
    expect((await eventsOf(first.session_id)).map((e) => e.type)).toEqual(["age_verification.session.denied"]);
    expect((await eventsOf(second.session_id)).map((e) => e.type)).toEqual(["age_verification.session.denied"]);
  });

  it("refuses completion without verified KYC (403) and a second completion (409), changing nothing", async () => {
    const merchant = await seedMerchant();
    const unverified = await seedAccount({ userType: "PERSONAL" });
    const opened = await openSession(merchant.apiKey);
    expectError(await complete(unverified.token, opened.session_id, opened.nonce), 403, "KYC_REQUIRED");
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe("PENDING");
    const user = await seedEndUser("1990-01-01");
    const first = await complete(user.token, opened.session_id, opened.nonce);
    expect(first.body.data.status).toBe("APPROVED");
    expectError(await complete(user.token, opened.session_id, opened.nonce, false), 409, "SESSION_NOT_PENDING");
    expect((await poll(merchant.apiKey, opened.session_id)).body.data).toEqual(first.body.data);
    expect(await eventsOf(opened.session_id)).toHaveLength(1);
  });

  it("keeps no link between the end user and the session", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    await complete(user.token, opened.session_id, opened.nonce);
    const row = await rowWhere(await dbOfSession(opened.session_id), verificationSessions, eq(verificationSessions.id, opened.session_id));
    expect(JSON.stringify(row)).not.toContain(user.id);
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(opened.session_id));
    const { runInDurableObject } = await import("cloudflare:test");
    const stored = await runInDurableObject(stub, async (_instance, state) => JSON.stringify([...(await state.storage.list()).entries()]));
    expect(stored).not.toContain(user.id);
    expect(stored).not.toContain(user.email);
    expect(stored).not.toContain("1990-01-01");
    expect(stored).not.toContain(opened.nonce);
  });

  it("closes a merchant's pending sessions when the merchant deletes the account: their objects forget them but the link's nonce hash", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    expect((await call("DELETE", "/api/users/account", { token: merchant.account.token })).status).toBe(200);
    expectError(await poll(merchant.apiKey, opened.session_id), 401, "UNAUTHORIZED");
    // The link says it is no longer valid (test/session/withdrawn-link.test.ts), and nothing is answered.
    expectError(await complete(user.token, opened.session_id, opened.nonce), 410, "SESSION_WITHDRAWN");
    const { runInDurableObject } = await import("cloudflare:test");
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(opened.session_id));
    const stored = await runInDurableObject(stub, async (_i, state) => [...(await state.storage.list()).keys()]);
    expect(stored).toEqual(["withdrawn"]);
    const rows = await (await dbOfAccount(merchant.account.id))
      .select()
      .from(verificationSessions)
      .where(eq(verificationSessions.accountId, merchant.account.id));
    expect(rows).toEqual([]);
  });
});
