// What the session's Durable Object keeps between handing out a digital-ID request and receiving the
// answer (JSON, a few hundred bytes): the per-request private keys as JWK, the OpenID4VP nonce and the
// Annex C EncryptionInfo exactly as sent (its transcript hashes that text). A new request replaces it,
// so only the latest request can be answered; the Durable Object drops it once a response verifies.
import * as z from "../lib/lazy-zod";

const PrivateEcJwk = z.object({
  kty: z.literal("EC"),
  crv: z.literal("P-256"),
  x: z.string(),
  y: z.string(),
  d: z.string(),
  kid: z.optional(z.string()),
});

export const PendingDigitalIdRequest = z.object({
  ageRequired: z.int().check(z.gte(1), z.lte(150)),
  createdAt: z.iso.datetime(),
  /** Absent above 99: `age_over_NN` has two digits, so the mdoc way is not offered. */
  mdoc: z.nullable(z.object({ encryptionInfo: z.string(), privateKey: PrivateEcJwk })),
  openId4Vp: z.object({ nonce: z.string(), privateKey: z.extend(PrivateEcJwk, { kid: z.string() }) }),
});
export type PendingDigitalIdRequest = z.infer<typeof PendingDigitalIdRequest>;
export type PrivateEcJwk = z.infer<typeof PrivateEcJwk>;
