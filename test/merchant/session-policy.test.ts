// The merchant's policy on a session (docs/api-contract.md §Session policy): accepted_assurance and
// double_blind at open, the refusals of a way the session does not accept, and why a denial was denied,
// as the poll, the receipt and the session log tell it.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passkeyChallenges, verificationSessions } from "../../src/db/schema";
import { sessionPolicy } from "../../src/domain/verification";
import { call, expectError } from "../helpers/http";
import { verifyReceipt } from "../helpers/receipts";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { CALLBACK_URL, complete, poll, storedStatus } from "../helpers/sessions";
import { dbOfAccount, dbOfSession } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const open = (apiKey: string, extra: Record<string, unknown>, ageRequired = 18) =>
  call("POST", "/api/age-verification/session", { apiKey, body: { age_required: ageRequired, callback_url: CALLBACK_URL, ...extra } });
const logRow = async (sessionId: string) =>
  rowWhere(await dbOfSession(sessionId), verificationSessions, eq(verificationSessions.id, sessionId));
const decline = (sessionId: string, nonce: string) =>
  call("POST", `/api/age-verification/session/${sessionId}/decline`, { headers: { "x-session-nonce": nonce } });

// Literal settings for the pure rule: what a deployment offers depends on these two alone.
const ANCHORS = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
const TOKEN_KEYS = '[{"age_over":18,"current":"MIIE"}]';

describe("the open request's policy", () => {
  it("defaults to every way the deployment offers, and says so in the answer, the poll and the log", async () => {
    const merchant = await seedMerchant();
    const res = await open(merchant.apiKey, {});
    expect(res.status).toBe(201);
    // Development offers both: its trust anchors are the test wallet's root.
    expect(res.body.data).toMatchObject({ accepted_assurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"], double_blind: false });
    const polled = await poll(merchant.apiKey, res.body.data.session_id);
    expect(polled.body.data).toMatchObject({
      accepted_assurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"],
      double_blind: false,
      denial_reason: null,
    });
    expect(await logRow(res.body.data.session_id)).toMatchObject({
      acceptedAssurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"],
      doubleBlind: false,
    });
  });

  it("keeps the ways asked for, in the deployment's order", async () => {
    const merchant = await seedMerchant();
    const res = await open(merchant.apiKey, { accepted_assurance: ["DIGITAL_ID_VERIFIED", "KYC_VERIFIED"], double_blind: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ accepted_assurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"], double_blind: true });
    expect(await logRow(res.body.data.session_id)).toMatchObject({ doubleBlind: true });
  });

  it.each([
    ["an empty list", { accepted_assurance: [] }, "accepted_assurance"],
    ["a way twice", { accepted_assurance: ["KYC_VERIFIED", "KYC_VERIFIED"] }, "accepted_assurance"],
    ["an unknown way", { accepted_assurance: ["SELFIE"] }, "accepted_assurance.0"],
    ["a double_blind that is not a boolean", { double_blind: "yes" }, "double_blind"],
  ])("refuses %s with 422 and opens nothing", async (_name, extra, path) => {
    const merchant = await seedMerchant();
    const before = await (await dbOfAccount(merchant.account.id))
      .select()
      .from(verificationSessions)
      .where(eq(verificationSessions.accountId, merchant.account.id));
    const res = await open(merchant.apiKey, extra);
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors!.map((e: { path: string }) => e.path)).toContain(path);
    expect(
      await (await dbOfAccount(merchant.account.id))
        .select()
        .from(verificationSessions)
        .where(eq(verificationSessions.accountId, merchant.account.id)),
    ).toEqual(before);
  });

  it("offers a digital ID only with trust anchors, and refuses a double-blind session no way could approve", () => {
    expect(sessionPolicy({ digitalIdTrustAnchors: undefined, ageTokenKeys: undefined }, {})).toEqual({
      ok: true,
      policy: { acceptedAssurance: ["KYC_VERIFIED"], doubleBlind: false },
    });
    const notOffered = sessionPolicy(
      { digitalIdTrustAnchors: undefined, ageTokenKeys: TOKEN_KEYS },
      { accepted_assurance: ["DIGITAL_ID_VERIFIED"] },
    );
    expect(notOffered).toMatchObject({ ok: false, errors: [{ path: "accepted_assurance" }] });
    // Double-blind needs a token (KYC_VERIFIED accepted and token keys) or a digital ID.
    expect(sessionPolicy({ digitalIdTrustAnchors: undefined, ageTokenKeys: undefined }, { double_blind: true })).toMatchObject({
      ok: false,
      errors: [{ path: "double_blind" }],
    });
    expect(
      sessionPolicy(
        { digitalIdTrustAnchors: ANCHORS, ageTokenKeys: undefined },
        { double_blind: true, accepted_assurance: ["KYC_VERIFIED"] },
      ),
    ).toMatchObject({
      ok: false,
      errors: [{ path: "double_blind" }],
    });
    expect(sessionPolicy({ digitalIdTrustAnchors: undefined, ageTokenKeys: TOKEN_KEYS }, { double_blind: true })).toEqual({
      ok: true,
      policy: { acceptedAssurance: ["KYC_VERIFIED"], doubleBlind: true },
    });
    expect(sessionPolicy({ digitalIdTrustAnchors: ANCHORS, ageTokenKeys: undefined }, { double_blind: true })).toEqual({
      ok: true,
      policy: { acceptedAssurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"], doubleBlind: true },
    });
  });
});

describe("a way the session does not accept", () => {
  it("an account's approval of a session that accepts only a digital ID is 403 ASSURANCE_NOT_ACCEPTED and changes nothing", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = (await open(merchant.apiKey, { accepted_assurance: ["DIGITAL_ID_VERIFIED"] })).body.data;
    expectError(await complete(user.token, opened.session_id, opened.nonce), 403, "ASSURANCE_NOT_ACCEPTED");
    expectError(await complete(user.token, opened.session_id, opened.nonce, false), 403, "ASSURANCE_NOT_ACCEPTED");
    expect(await storedStatus(opened.session_id)).toBe("PENDING");
    expect(await logRow(opened.session_id)).toMatchObject({ status: "PENDING", assurance: null, denialReason: null });
  });

  it("a password approval of a double-blind session is 403 DOUBLE_BLIND_REQUIRED and changes nothing; a decline stays open to anyone", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = (await open(merchant.apiKey, { double_blind: true })).body.data;
    expectError(await complete(user.token, opened.session_id, opened.nonce), 403, "DOUBLE_BLIND_REQUIRED");
    expect(await storedStatus(opened.session_id)).toBe("PENDING");
    const declined = await decline(opened.session_id, opened.nonce);
    expect(declined.status).toBe(200);
    expect(declined.body.data).toMatchObject({
      status: "DENIED",
      assurance: null,
      holder_binding: null,
      denial_reason: "DECLINED",
      double_blind: true,
    });
  });
});

describe("the account's passkey challenge", () => {
  it("is refused for a double-blind session and for one that does not accept KYC_VERIFIED, and none is stored", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const cases = [
      [{ double_blind: true }, "DOUBLE_BLIND_REQUIRED"],
      [{ accepted_assurance: ["DIGITAL_ID_VERIFIED"] }, "ASSURANCE_NOT_ACCEPTED"],
    ] as const;
    for (const [policy, code] of cases) {
      const opened = (await open(merchant.apiKey, policy)).body.data;
      const before = (await (await dbOfAccount(user.id)).select().from(passkeyChallenges)).length;
      const res = await call("POST", `/api/age-verification/session/${opened.session_id}/passkey-options`, {
        token: user.token,
        headers: { "x-session-nonce": opened.nonce },
        body: {},
      });
      expectError(res, 403, code);
      expect((await (await dbOfAccount(user.id)).select().from(passkeyChallenges)).length).toBe(before);
    }
    // The positive control: a session that accepts the account's approval hands out a challenge.
    const open2 = (await open(merchant.apiKey, {})).body.data;
    const ok = await call("POST", `/api/age-verification/session/${open2.session_id}/passkey-options`, {
      token: user.token,
      headers: { "x-session-nonce": open2.nonce },
      body: {},
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe("test mode under a policy", () => {
  it("answers a digital-ID-only test session with DIGITAL_ID_VERIFIED, the way its live twin would be answered", async () => {
    const merchant = await seedMerchant("Policy tests", "test");
    const opened = (await open(merchant.apiKey, { accepted_assurance: ["DIGITAL_ID_VERIFIED"] })).body.data;
    const res = await call("POST", `/api/age-verification/session/${opened.session_id}/test-outcome`, {
      apiKey: merchant.apiKey,
      body: { outcome: "APPROVED" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "APPROVED",
      assurance: "DIGITAL_ID_VERIFIED",
      holder_binding: null,
      denial_reason: null,
    });
  });
});

describe("denial_reason", () => {
  it("is UNDER_AGE for an account under the age, DECLINED for a refusal, null for an approval: in the poll, the receipt and the log", async () => {
    const merchant = await seedMerchant();
    const cases = [
      { dob: "2015-01-01", consent: true, status: "DENIED", reason: "UNDER_AGE" },
      { dob: "1990-01-01", consent: false, status: "DENIED", reason: "DECLINED" },
      { dob: "1990-01-01", consent: true, status: "APPROVED", reason: null },
    ] as const;
    for (const { dob, consent, status, reason } of cases) {
      const user = await seedEndUser(dob);
      const opened = (await open(merchant.apiKey, {})).body.data;
      const answered = await complete(user.token, opened.session_id, opened.nonce, consent);
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect(answered.body.data).toMatchObject({ status, assurance: "KYC_VERIFIED", denial_reason: reason });
      expect((await verifyReceipt(answered.body.data.receipt)).claims).toMatchObject({ outcome: status, denial_reason: reason });
      expect((await poll(merchant.apiKey, opened.session_id)).body.data.denial_reason).toBe(reason);
      expect(await logRow(opened.session_id)).toMatchObject({
        status,
        assurance: "KYC_VERIFIED",
        denialReason: reason,
        holderBinding: consent ? "PASSWORD" : null,
      });
    }
  });

  it("is DECLINED for a first-screen decline, which asserts no assurance, in the log too", async () => {
    const merchant = await seedMerchant();
    const opened = (await open(merchant.apiKey, {})).body.data;
    expect((await decline(opened.session_id, opened.nonce)).body.data).toMatchObject({
      status: "DENIED",
      denial_reason: "DECLINED",
      assurance: null,
    });
    expect(await logRow(opened.session_id)).toMatchObject({
      status: "DENIED",
      denialReason: "DECLINED",
      assurance: null,
      holderBinding: null,
    });
  });
});
