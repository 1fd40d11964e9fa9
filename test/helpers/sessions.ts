// Verification sessions through the real endpoints.
import { env, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { verificationSessions } from "../../src/db/schema";
import { call } from "./http";
import { dbOfSession } from "./shards";

export const CALLBACK_URL = "https://merchant.example.com/hooks/age";

export async function openSession(apiKey: string, ageRequired = 18, callbackUrl = CALLBACK_URL) {
  const res = await call("POST", "/api/age-verification/session", {
    apiKey,
    body: { age_required: ageRequired, callback_url: callbackUrl },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { session_id: string; nonce: string; age_required: number; expires_at: string };
}

export const poll = (apiKey: string, sessionId: string) => call("GET", `/api/age-verification/session/${sessionId}`, { apiKey });

export const complete = (token: string, sessionId: string, nonce: string, consent = true) =>
  call("POST", `/api/age-verification/session/${sessionId}/complete`, { token, body: { nonce, consent } });

/** The date of birth of someone who turns `years` old on today's UTC date. */
export function birthdayToday(years: number, shiftDays = 0): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + shiftDays));
  return date.toISOString().slice(0, 10);
}

/** The session's Durable Object stub, as the routes reach it. */
export const sessionObject = (sessionId: string) => env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));

/** Moves a session's expiry into the past (its object and its log row), as if its lifetime had run out. */
export async function rewindExpiry(sessionId: string, msAgo = 1000): Promise<string> {
  const expiresAt = new Date(Date.now() - msAgo).toISOString();
  await runInDurableObject(sessionObject(sessionId), async (_instance, state) => {
    const current = await state.storage.get<Record<string, unknown>>("state");
    await state.storage.put("state", { ...current, expiresAt });
  });
  await (await dbOfSession(sessionId)).update(verificationSessions).set({ expiresAt }).where(eq(verificationSessions.id, sessionId));
  return expiresAt;
}

export const storedStatus = (sessionId: string) =>
  runInDurableObject(sessionObject(sessionId), async (_instance, state) => (await state.storage.get<{ status: string }>("state"))?.status);

/** Runs the object's alarm handler now, whether or not an alarm is scheduled (a repeat or early run). */
export const fireAlarm = (sessionId: string) =>
  runInDurableObject(sessionObject(sessionId), (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
