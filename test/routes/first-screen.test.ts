// The end user's first screen and "Not now" (docs/api-contract.md §Preview, §Answering): nonce-gated, no account.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { callbackEvents, verificationSessions } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, complete, openSession, poll, rewindExpiry, storedStatus } from "../helpers/sessions";
import { dbOfSession } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const preview = (sessionId: string, nonce?: string) =>
  call("GET", `/api/age-verification/session/${sessionId}/preview`, { headers: nonce === undefined ? {} : { "x-session-nonce": nonce } });
const decline = (sessionId: string, nonce?: string, token?: string) =>
  call("POST", `/api/age-verification/session/${sessionId}/decline`, {
    token,
    headers: nonce === undefined ? {} : { "x-session-nonce": nonce },
  });
const logRow = async (sessionId: string) =>
  rowWhere(await dbOfSession(sessionId), verificationSessions, eq(verificationSessions.id, sessionId));

describe("GET /session/{id}/preview", () => {
  it("names the merchant, the age and the link's state without an account", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey, 21);
    const res = await preview(opened.session_id, opened.nonce);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      merchant_name: "Acme Wines Ltd",
      age_required: 21,
      status: "PENDING",
      expires_at: opened.expires_at,
      resolved_at: null,
      livemode: true,
      return_url: null,
      locale: null,
      // Development offers both ways (test/wallet's root is a trust anchor there); the default accepts each.
      accepted_assurance: ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"],
      double_blind: false,
      require_passkey: false,
    });
    expect(res.headers.get("date")).toBeTruthy();
  });

  it("answers one 404 for a wrong nonce, a missing nonce, an unknown id and a malformed id", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const wrong = await preview(opened.session_id, "x".repeat(43));
    expectError(wrong, 404, "NOT_FOUND");
    for (const other of [
      await preview(opened.session_id),
      await preview(opened.session_id, ""),
      await preview(`ses_${"A".repeat(24)}`, opened.nonce),
      await preview("not-a-session", opened.nonce),
    ]) {
      expect(other.status).toBe(404);
      expect(other.body).toEqual(wrong.body);
    }
  });

  it("shows an answered link as answered, with when", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(30));
    const opened = await openSession(merchant.apiKey);
    const done = await complete(user.token, opened.session_id, opened.nonce, true);
    const res = await preview(opened.session_id, opened.nonce);
    expect(res.body.data).toMatchObject({ status: "APPROVED", resolved_at: done.body.data.resolved_at });
  });

  it("expires a link past its lifetime instead of showing it PENDING", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const expiresAt = await rewindExpiry(opened.session_id);
    const res = await preview(opened.session_id, opened.nonce);
    expect(res.body.data).toMatchObject({ status: "EXPIRED", resolved_at: expiresAt });
    expect(await storedStatus(opened.session_id)).toBe("EXPIRED");
  });
});

describe("POST /session/{id}/decline", () => {
  it("denies without an account, asserts nothing about a person and sends the callback", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const res = await decline(opened.session_id, opened.nonce);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      session_id: opened.session_id,
      status: "DENIED",
      above_age_required: false,
      assurance: null,
      holder_binding: null,
    });
    expect(res.body.data.receipt_id).toMatch(/^rcpt_/);
    // The receipt says the same: no identity was checked, nobody was bound.
    const claims = JSON.parse(atob(res.body.data.receipt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    expect(claims).toMatchObject({ outcome: "DENIED", assurance: null, holder_binding: null, receipt_id: res.body.data.receipt_id });
    const polled = await poll(merchant.apiKey, opened.session_id);
    expect(polled.body.data).toEqual(res.body.data);
    expect(await logRow(opened.session_id)).toMatchObject({ status: "DENIED", aboveAgeRequired: false });
    const events = await (await dbOfSession(opened.session_id))
      .select()
      .from(callbackEvents)
      .where(eq(callbackEvents.sessionId, opened.session_id));
    expect(events.map((e) => e.type)).toEqual(["age_verification.session.denied"]);
  });

  it("takes the nonce as ?nonce= too (as the 1.0.0 routes do)", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const shown = await call("GET", `/api/age-verification/session/${opened.session_id}/preview?nonce=${opened.nonce}`);
    expect(shown.body.data).toMatchObject({ status: "PENDING", livemode: true });
    const res = await call("POST", `/api/age-verification/session/${opened.session_id}/decline?nonce=${opened.nonce}`);
    expect(res.body.data).toMatchObject({ status: "DENIED", holder_binding: null });
  });

  it("refuses a second answer with 409 and leaves the first one", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(30));
    const opened = await openSession(merchant.apiKey);
    await decline(opened.session_id, opened.nonce);
    expectError(await decline(opened.session_id, opened.nonce), 409, "SESSION_NOT_PENDING");
    expectError(await complete(user.token, opened.session_id, opened.nonce, true), 409, "SESSION_NOT_PENDING");
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe("DENIED");
  });

  it("cannot decline a link that was approved, nor one that expired", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(30));
    const approved = await openSession(merchant.apiKey);
    await complete(user.token, approved.session_id, approved.nonce, true);
    expectError(await decline(approved.session_id, approved.nonce), 409, "SESSION_NOT_PENDING");
    expect(await storedStatus(approved.session_id)).toBe("APPROVED");
    const late = await openSession(merchant.apiKey);
    await rewindExpiry(late.session_id);
    expectError(await decline(late.session_id, late.nonce), 409, "SESSION_NOT_PENDING");
    expect(await storedStatus(late.session_id)).toBe("EXPIRED");
  });

  it("answers 404 for a wrong or missing nonce and changes nothing", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    expectError(await decline(opened.session_id, "y".repeat(43)), 404, "NOT_FOUND");
    expectError(await decline(opened.session_id), 404, "NOT_FOUND");
    expectError(await decline(`ses_${"B".repeat(24)}`, opened.nonce), 404, "NOT_FOUND");
    expect(await storedStatus(opened.session_id)).toBe("PENDING");
    expect(await logRow(opened.session_id)).toMatchObject({ status: "PENDING" });
  });

  it("a signed-in person's consent:false still reports the verified identity", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(30));
    const opened = await openSession(merchant.apiKey);
    const res = await complete(user.token, opened.session_id, opened.nonce, false);
    expect(res.body.data).toMatchObject({ status: "DENIED", assurance: "KYC_VERIFIED" });
  });
});
