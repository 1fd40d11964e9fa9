import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eventState } from "../helpers/callbacks";
import { db, seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession, rewindExpiry, fireAlarm } from "../helpers/sessions";
import { callbackEvents } from "../../src/db/schema";
import { eq } from "drizzle-orm";

afterEach(() => {
  vi.restoreAllMocks();
});

const MERCHANT_HOOK = "https://merchant.example.com/hooks/age";

describe("callbacks end to end", () => {
  it("completing a session leads, through the real queue consumer, to one signed POST at the callback URL", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const opened = await openSession(merchant.apiKey, 18, MERCHANT_HOOK);
    const completed = await complete(user.token, opened.session_id, opened.nonce);
    expect(completed.status).toBe(200);

    const [event] = await db().select().from(callbackEvents).where(eq(callbackEvents.sessionId, opened.session_id));
    await vi.waitFor(async () => expect(await eventState(event!.id)).toBe("delivered"));
    const posts = spy.mock.calls.filter(([input]) => String(input) === MERCHANT_HOOK);
    expect(posts).toHaveLength(1);
    const [, init] = posts[0]!;
    const headers = Object.fromEntries(new Headers(init!.headers));
    expect(headers["webhook-id"]).toBe(event!.id);
    const payload = new Webhook(merchant.signingSecret).verify(String(init!.body), headers) as Record<string, unknown>;
    expect(payload).toEqual({
      type: "age_verification.session.approved",
      timestamp: completed.body.data.resolved_at,
      data: completed.body.data,
    });
    expect(() => new Webhook(merchant.signingSecret).verify(String(init!.body).replace("APPROVED", "DENIED"), headers)).toThrow();
  });

  it("an expiry by the alarm is delivered as age_verification.session.expired", async () => {
    const merchant = await seedMerchant();
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    const opened = await openSession(merchant.apiKey, 18, MERCHANT_HOOK);
    await rewindExpiry(opened.session_id);
    await fireAlarm(opened.session_id);
    const [event] = await db().select().from(callbackEvents).where(eq(callbackEvents.sessionId, opened.session_id));
    await vi.waitFor(async () => expect(await eventState(event!.id)).toBe("delivered"));
    const body = JSON.parse(String(spy.mock.calls.find(([input]) => String(input) === MERCHANT_HOOK)![1]!.body));
    expect(body).toMatchObject({ type: "age_verification.session.expired", data: { session_id: opened.session_id, status: "EXPIRED" } });
  });
});
