import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { RESOLVED_RETENTION_MS } from "../../src/session/verification-session";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { callbackEvents, verificationSessions } from "../../src/db/schema";
import { expectError } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, fireAlarm, openSession, poll, rewindExpiry, sessionObject } from "../helpers/sessions";
import { dbOfSession } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const eventsOf = async (sessionId: string) =>
  (await dbOfSession(sessionId)).select().from(callbackEvents).where(eq(callbackEvents.sessionId, sessionId));
const scheduledAlarm = (sessionId: string) => runInDurableObject(sessionObject(sessionId), (_instance, state) => state.storage.getAlarm());
const logRow = async (sessionId: string) =>
  rowWhere(await dbOfSession(sessionId), verificationSessions, eq(verificationSessions.id, sessionId));

describe("session expiry", () => {
  it("the alarm expires a PENDING session at its expiry time, with one event, even if nobody polls", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    // The alarm that will fire is the one set at opening, for the moment the session expires.
    expect(await scheduledAlarm(opened.session_id)).toBe(Date.parse(opened.expires_at));
    const expiresAt = await rewindExpiry(opened.session_id);
    expect(await runDurableObjectAlarm(sessionObject(opened.session_id))).toBe(true);
    expect(await logRow(opened.session_id)).toMatchObject({
      status: "EXPIRED",
      resolvedAt: expiresAt,
      receiptId: null,
      aboveAgeRequired: false,
    });
    // Then the object keeps the result for 30 days (2,592,000,000 ms) and forgets it.
    expect(await scheduledAlarm(opened.session_id)).toBe(Date.parse(expiresAt) + 2_592_000_000);
    expect((await eventsOf(opened.session_id)).map((e) => e.type)).toEqual(["age_verification.session.expired"]);
    const polled = await poll(merchant.apiKey, opened.session_id);
    expect(polled.body.data).toMatchObject({
      status: "EXPIRED",
      above_age_required: false,
      assurance: null,
      receipt_id: null,
      resolved_at: expiresAt,
    });
  });

  it("running the alarm again changes nothing", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    await rewindExpiry(opened.session_id);
    await runDurableObjectAlarm(sessionObject(opened.session_id));
    const before = await logRow(opened.session_id);
    await fireAlarm(opened.session_id);
    expect(await logRow(opened.session_id)).toEqual(before);
    expect(await eventsOf(opened.session_id)).toHaveLength(1);
  });

  it("an early alarm leaves a PENDING session alone", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    await fireAlarm(opened.session_id);
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe("PENDING");
    expect(await eventsOf(opened.session_id)).toHaveLength(0);
  });

  it("the alarm does nothing to an APPROVED session", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    const approved = await complete(user.token, opened.session_id, opened.nonce);
    await rewindExpiry(opened.session_id);
    await fireAlarm(opened.session_id);
    expect((await logRow(opened.session_id))!.status).toBe("APPROVED");
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.receipt_id).toBe(approved.body.data.receipt_id);
    expect(await eventsOf(opened.session_id)).toHaveLength(1);
  });

  it("a poll past expiry never shows PENDING: it expires the session", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const expiresAt = await rewindExpiry(opened.session_id);
    const polled = await poll(merchant.apiKey, opened.session_id);
    expect(polled.body.data).toMatchObject({ status: "EXPIRED", resolved_at: expiresAt });
    expect(await eventsOf(opened.session_id)).toHaveLength(1);
  });

  it("a completion after expiry is 409 and the session reads EXPIRED", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    await rewindExpiry(opened.session_id);
    expectError(await complete(user.token, opened.session_id, opened.nonce), 409, "SESSION_NOT_PENDING");
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe("EXPIRED");
    expect((await eventsOf(opened.session_id)).map((e) => e.type)).toEqual(["age_verification.session.expired"]);
  });

  it.each([
    ["before expiry", false, "APPROVED"],
    ["after expiry", true, "EXPIRED"],
  ])("a completion racing the alarm %s yields one final status and one event", async (_label, due, finalStatus) => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    if (due) await rewindExpiry(opened.session_id);
    const [completion] = await Promise.all([
      complete(user.token, opened.session_id, opened.nonce),
      runDurableObjectAlarm(sessionObject(opened.session_id)),
      fireAlarm(opened.session_id),
    ]);
    expect(completion.status).toBe(finalStatus === "APPROVED" ? 200 : 409);
    expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe(finalStatus);
    expect((await logRow(opened.session_id))!.status).toBe(finalStatus);
    expect(await eventsOf(opened.session_id)).toHaveLength(1);
  });
});

describe("retention", () => {
  it("a resolved session's object forgets it after the retention period; the D1 log keeps the row", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    await complete(user.token, opened.session_id, opened.nonce);
    const alarmAt = await runInDurableObject(sessionObject(opened.session_id), (_i, state) => state.storage.getAlarm());
    const resolvedAt = (await logRow(opened.session_id))!.resolvedAt!;
    expect(alarmAt).toBe(Date.parse(resolvedAt) + RESOLVED_RETENTION_MS);
    // Not yet due: nothing is forgotten.
    await fireAlarm(opened.session_id);
    expect((await poll(merchant.apiKey, opened.session_id)).status).toBe(200);
    // Due: the object forgets the session.
    await runInDurableObject(sessionObject(opened.session_id), async (_i, state) => {
      const current = await state.storage.get<Record<string, unknown>>("state");
      await state.storage.put("state", { ...current, resolvedAt: new Date(Date.now() - RESOLVED_RETENTION_MS - 1000).toISOString() });
    });
    await fireAlarm(opened.session_id);
    expectError(await poll(merchant.apiKey, opened.session_id), 404, "NOT_FOUND");
    expect((await logRow(opened.session_id))!.status).toBe("APPROVED");
  });
});
