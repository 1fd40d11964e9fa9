// A pending link whose merchant deleted its account (docs/end-user-apps.md, "A link no longer valid"): the
// session's object forgets the merchant, key and callback, and keeps only the hash of the link's nonce and
// when to forget that too, so that the link's holder is told 410 SESSION_WITHDRAWN ("no longer valid")
// instead of a 404 that reads as a broken link. A wrong nonce still gets the one 404, and the answer says
// nothing of the merchant or of why.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RESOLVED_RETENTION_MS } from "../../src/session/verification-session";
import { call, expectError } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, complete, fireAlarm, openSession, sessionObject } from "../helpers/sessions";

const stored = (sessionId: string) =>
  runInDurableObject(sessionObject(sessionId), async (_instance, state) => ({
    entries: Object.fromEntries(await state.storage.list()),
    alarm: await state.storage.getAlarm(),
  }));

const nonceHeader = (nonce: string) => ({ "x-session-nonce": nonce });

async function withdrawnSession() {
  const merchant = await seedMerchant("Withdrawn shop");
  const session = await openSession(merchant.apiKey);
  const deleted = await call("DELETE", "/api/users/account", { token: merchant.account.token, body: {} });
  expect(deleted.status, deleted.text).toBe(200);
  return { merchant, session };
}

describe("a pending link whose merchant deleted its account", () => {
  it("the preview tells the link's holder 410 SESSION_WITHDRAWN, and nothing else; a wrong nonce is the one 404", async () => {
    const { session } = await withdrawnSession();
    const res = await call("GET", `/api/age-verification/session/${session.session_id}/preview`, { headers: nonceHeader(session.nonce) });
    expectError(res, 410, "SESSION_WITHDRAWN");
    expect(res.text).not.toContain("Withdrawn shop");
    expect(res.text).not.toContain("Acme");
    expect(res.text.toLowerCase()).not.toContain("delet");
    expectError(
      await call("GET", `/api/age-verification/session/${session.session_id}/preview`, { headers: nonceHeader("wrong-nonce") }),
      404,
      "NOT_FOUND",
    );
  });

  it("every route the page calls with the nonce says the same, and none changes anything", async () => {
    const { session } = await withdrawnSession();
    const path = `/api/age-verification/session/${session.session_id}`;
    const person = await seedEndUser(birthdayToday(30));
    expectError(
      await call("GET", `${path}/request`, { token: person.token, headers: nonceHeader(session.nonce) }),
      410,
      "SESSION_WITHDRAWN",
    );
    expectError(await complete(person.token, session.session_id, session.nonce), 410, "SESSION_WITHDRAWN");
    expectError(await call("POST", `${path}/decline`, { headers: nonceHeader(session.nonce) }), 410, "SESSION_WITHDRAWN");
    expectError(await call("POST", `${path}/digital-id/request`, { headers: nonceHeader(session.nonce) }), 410, "SESSION_WITHDRAWN");
    const { entries } = await stored(session.session_id);
    expect(Object.keys(entries)).toEqual(["withdrawn"]);
  });

  it("closing it again (a queue message retried) keeps the trace: the link still says it is no longer valid", async () => {
    const { session } = await withdrawnSession();
    await runInDurableObject(sessionObject(session.session_id), (instance) =>
      (instance as unknown as { closeForDeletedAccount(): Promise<void> }).closeForDeletedAccount(),
    );
    expect(Object.keys((await stored(session.session_id)).entries)).toEqual(["withdrawn"]);
    expectError(
      await call("GET", `/api/age-verification/session/${session.session_id}/preview`, { headers: nonceHeader(session.nonce) }),
      410,
      "SESSION_WITHDRAWN",
    );
  });

  it("a test session's link says the same to the test page's outcome chooser", async () => {
    const merchant = await seedMerchant("Withdrawn test shop", "test");
    const session = await openSession(merchant.apiKey);
    expect((await call("DELETE", "/api/users/account", { token: merchant.account.token, body: {} })).status).toBe(200);
    const path = `/api/age-verification/session/${session.session_id}/test-outcome`;
    expectError(await call("POST", path, { body: { outcome: "APPROVED", nonce: session.nonce } }), 410, "SESSION_WITHDRAWN");
    expectError(await call("POST", path, { body: { outcome: "APPROVED", nonce: "wrong-nonce" } }), 404, "NOT_FOUND");
  });

  it("the object keeps only the nonce's hash and when to forget it, and forgets it then", async () => {
    const { session } = await withdrawnSession();
    const before = Date.now();
    const { entries, alarm } = await stored(session.session_id);
    const kept = entries.withdrawn as Record<string, unknown>;
    expect(Object.keys(kept).sort()).toEqual(["forgetAt", "nonceHash"]);
    expect(JSON.stringify(kept)).not.toContain("Withdrawn shop");
    // Kept as long as any answered link is (RESOLVED_RETENTION_MS), and the alarm is set for then.
    expect(kept.forgetAt).toBe(alarm);
    expect(alarm! - before).toBeGreaterThan(RESOLVED_RETENTION_MS - 60_000);
    expect(alarm! - before).toBeLessThanOrEqual(RESOLVED_RETENTION_MS);
    // An early alarm keeps it; one at its time forgets it, and the link is then the one 404.
    await fireAlarm(session.session_id);
    expect(Object.keys((await stored(session.session_id)).entries)).toEqual(["withdrawn"]);
    await runInDurableObject(sessionObject(session.session_id), (_instance, state) =>
      state.storage.put("withdrawn", { ...kept, forgetAt: Date.now() - 1 }),
    );
    await fireAlarm(session.session_id);
    expect((await stored(session.session_id)).entries).toEqual({});
    expectError(
      await call("GET", `/api/age-verification/session/${session.session_id}/preview`, { headers: nonceHeader(session.nonce) }),
      404,
      "NOT_FOUND",
    );
  });
});
