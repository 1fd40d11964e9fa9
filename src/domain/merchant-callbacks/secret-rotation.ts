// Signing-secret rotation with a grace period (Standard Webhooks / Svix style): the key gets a new
// secret, shown once; the one it replaces keeps signing beside it until the grace ends, so every
// callback in the window carries both signatures (`v1,<new> v1,<old>`) and the merchant can deploy the
// new secret at any moment inside it. A second rotation inside the window ends the oldest secret.
import { and, eq } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { apiKeys } from "../../db/schema";
import { ApiError, notFound } from "../../errors";
import { isIdOf } from "../../lib/ids";
import { openSecret, sealSecret } from "../../lib/sealed-secret";
import { addSeconds, nowIso } from "../../lib/time";
import { secretsKeys } from "../../config/secret-versions";
import { newSigningSecret, previousSecretRowId } from "../../callbacks/signing-secret";
import { toApiKeyRecord } from "../keys";
import type { ServiceContext } from "../../context/service-context";

export const DEFAULT_GRACE_HOURS = 24;
export const MAX_GRACE_HOURS = 7 * 24;

export const RotateInput = z.object({
  graceHours: z
    ._default(z.int().check(z.gte(0), z.lte(MAX_GRACE_HOURS)), DEFAULT_GRACE_HOURS)
    .check(
      z.describe(
        OPENAPI_METADATA
          ? `Hours the previous secret keeps signing beside the new one (default ${DEFAULT_GRACE_HOURS}, at most 7 days). 0 ends it at once (a leaked secret).`
          : "",
      ),
    ),
});

export async function rotateSigningSecret({ db, settings }: ServiceContext, userId: string, keyId: string, graceHours: number) {
  if (!isIdOf("key", keyId)) throw notFound("Key");
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .limit(1);
  if (!row) throw notFound("Key");
  const keys = secretsKeys(settings);
  const replaced = await openSecret(row.signingSecretEnc, keys, row.id);
  const signingSecret = newSigningSecret();
  const rotatedAt = nowIso();
  const keepPrevious = graceHours > 0;
  // Compare-and-set on the ciphertext read: of two concurrent rotations one wins, the other is told so
  // (it would otherwise hand out a secret that never signs anything).
  const [updated] = await db
    .update(apiKeys)
    .set({
      signingSecretEnc: await sealSecret(signingSecret, keys[0]!, row.id),
      previousSigningSecretEnc: keepPrevious ? await sealSecret(replaced, keys[0]!, previousSecretRowId(row.id)) : null,
      previousSecretExpiresAt: keepPrevious ? addSeconds(rotatedAt, graceHours * 3600) : null,
      secretRotatedAt: rotatedAt,
    })
    .where(and(eq(apiKeys.id, row.id), eq(apiKeys.signingSecretEnc, row.signingSecretEnc)))
    .returning();
  if (!updated) throw new ApiError("ROTATION_CONFLICT");
  return { key: toApiKeyRecord(updated, rotatedAt), signingSecret };
}
