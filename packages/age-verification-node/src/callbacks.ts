// Verifies a callback as Standard Webhooks v1 defines it (docs/callbacks.md): HMAC-SHA256 over
// `${webhook-id}.${webhook-timestamp}.${raw body}` with the base64 part of a `whsec_` secret, any of the
// space-separated `v1,` signatures may match, and the timestamp must be within 5 minutes of now (a replay
// of an old, validly signed request is refused). Every secret the merchant holds is tried, so a
// rotation's grace (the service signs with the new and the old secret) needs no code change.
import type { PolledSession } from "./client.js";
import { base64ToBytes, utf8 } from "./encoding.js";

/** Standard Webhooks' default tolerance: a request older or newer than this is refused. */
export const CALLBACK_TOLERANCE_SECONDS = 5 * 60;

export type SessionEventType = "age_verification.session.approved" | "age_verification.session.denied" | "age_verification.session.expired";
export type CallbackEvent =
  | { type: SessionEventType; timestamp: string; data: PolledSession }
  | { type: "age_verification.test"; timestamp: string; data: Record<string, unknown> };

export class CallbackVerificationError extends Error {
  override name = "CallbackVerificationError";
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const found = Object.entries(headers as Record<string, string | string[] | undefined>).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

/**
 * Checks one callback on its raw body (the exact bytes received, before any JSON parsing) and returns the
 * parsed event; throws CallbackVerificationError on a missing, forged or stale one. `signingSecrets`: every
 * `whsec_…` secret you currently hold (during a rotation, the new and the old one). De-duplicate on the
 * `webhook-id` header yourself: a redelivery carries the same id.
 */
export async function verifyCallback(
  rawBody: string,
  headers: HeaderSource,
  signingSecrets: readonly string[],
  options: { now?: Date } = {},
): Promise<CallbackEvent> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new CallbackVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d{1,12}$/.test(timestamp)) throw new CallbackVerificationError("webhook-timestamp is not Unix seconds");
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > CALLBACK_TOLERANCE_SECONDS)
    throw new CallbackVerificationError("webhook-timestamp is outside the 5-minute tolerance");
  if (signingSecrets.length === 0) throw new CallbackVerificationError("no signing secret given");

  const signed = utf8(`${id}.${timestamp}.${rawBody}`);
  const candidates = signatures
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => decodedOrNull(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== null);
  for (const secret of signingSecrets) {
    const key = await crypto.subtle.importKey("raw", secretBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    // subtle.verify compares in constant time: no early exit tells an attacker how much of a guess matched.
    for (const signature of candidates) {
      if (await crypto.subtle.verify("HMAC", key, signature, signed)) return JSON.parse(rawBody) as CallbackEvent;
    }
  }
  throw new CallbackVerificationError("no signature matches any of the signing secrets");
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret.startsWith("whsec_")) throw new CallbackVerificationError("a signing secret starts with whsec_");
  return base64ToBytes(secret.slice("whsec_".length));
}

function decodedOrNull(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return base64ToBytes(text);
  } catch {
    return null;
  }
}
