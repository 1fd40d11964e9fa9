// Standard Webhooks v1 signatures (docs/api-contract.md §Callbacks): any Standard Webhooks library verifies them.
import { SIGNING_SECRET_PREFIX } from "./signing-secret";
import { fromBase64, toBase64 } from "../lib/encoding";
import { hmacSha256 } from "../lib/crypto";

export type WebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** The HMAC key: the base64-decoded part after `whsec_` (a bare base64 secret is accepted as well). */
export function signingKey(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret;
  return fromBase64(encoded);
}

/** `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`. */
export async function signPayload(secret: string, webhookId: string, timestampSeconds: number, body: string): Promise<string> {
  const mac = await hmacSha256(signingKey(secret), `${webhookId}.${timestampSeconds}.${body}`);
  return `v1,${toBase64(mac)}`;
}

/**
 * The three headers of one attempt; the timestamp is the attempt's own, the id the event's. One `v1,`
 * signature per live secret, newest first, space-separated (a rotation's grace, docs/api-contract.md §Callbacks): a
 * receiver holding either secret verifies.
 */
export async function webhookHeaders(
  secrets: string | readonly string[],
  webhookId: string,
  timestampSeconds: number,
  body: string,
): Promise<WebhookHeaders> {
  const signatures = await Promise.all([secrets].flat().map((secret) => signPayload(secret, webhookId, timestampSeconds, body)));
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signatures.join(" "),
  };
}
