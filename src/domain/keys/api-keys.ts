// Merchant API keys (docs/api-contract.md §Keys): the key is stored only as SHA-256, the signing secret only encrypted.
import { and, count, desc, eq, isNull } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { secret } from "../../config/settings";
import { apiKeys, type ApiKeyRow, KEY_MODES } from "../../db/schema";

export type KeyMode = (typeof KEY_MODES)[number];
import { ApiError, notFound } from "../../errors";
import { sha256Hex } from "../../lib/crypto";
import { newTaggedValue } from "../../lib/shard-tag";
import { chosenShard } from "../../context/shard-routing";
import { isIdOf, newId } from "../../lib/ids";
import { sealSecret } from "../../lib/sealed-secret";
import { nowIso } from "../../lib/time";
import { newSigningSecret, previousSecretLive } from "../../callbacks/signing-secret";
import type { ServiceContext } from "../../context/service-context";

export const MAX_ACTIVE_KEYS = 20;
export const API_KEY_PREFIX = "svc_sk_";
/** New keys name their mode (docs/api-contract.md §Keys); a 1.0.0 key (svc_sk_ and 43 characters) is live. */
export const KEY_PREFIXES = { live: "svc_sk_live_", test: "svc_sk_test_" } as const satisfies Record<KeyMode, string>;
/** Shown in lists so a merchant can recognise a key without it being recoverable: the mode prefix and 4 characters. */
const VISIBLE_PREFIX_LENGTH = 16;

export const ApiKeyRecord = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.nullable(z.iso.datetime()),
  revokedAt: z.nullable(z.iso.datetime()),
  signingSecret: z
    .object({
      rotatedAt: z
        .nullable(z.iso.datetime())
        .check(z.describe(OPENAPI_METADATA ? "When the current signing secret replaced the previous one; null if never rotated." : "")),
      previousExpiresAt: z
        .nullable(z.iso.datetime())
        .check(
          z.describe(
            OPENAPI_METADATA
              ? "While set, callbacks carry a second signature made with the previous secret, until this time; null when only the current secret signs."
              : "",
          ),
        ),
    })
    .check(z.describe(OPENAPI_METADATA ? "The states of the key's signing secrets (never the secrets themselves)." : "")),
  allowedCallbackOrigins: z
    .nullable(z.array(z.string()))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Origins (scheme://host[:port]) a session's callback_url must be on; null allows any callback_url that passes the URL rules."
          : "",
      ),
    ),
  mode: z
    .enum(KEY_MODES)
    .check(z.describe(OPENAPI_METADATA ? "test: sessions are livemode false and answered without an identity check." : "")),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const toApiKeyRecord = (row: ApiKeyRow, now = nowIso()): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
  signingSecret: {
    rotatedAt: row.secretRotatedAt,
    previousExpiresAt: previousSecretLive(row, now) ? row.previousSecretExpiresAt : null,
  },
  allowedCallbackOrigins: row.allowedCallbackOrigins,
  mode: row.mode,
});

export const hashApiKey = (apiKey: string) => sha256Hex(apiKey);

export async function createApiKey(ctx: ServiceContext, userId: string, name: string, mode: KeyMode = "live") {
  const { db, settings } = ctx;
  const [active] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  if ((active?.n ?? 0) >= MAX_ACTIVE_KEYS) {
    throw new ApiError("KEY_LIMIT_REACHED", { message: `An account can have at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.` });
  }
  // The key names its account's shard (src/lib/shard-tag.ts): requireApiKey reaches it without a lookup.
  const apiKey = KEY_PREFIXES[mode] + (await newTaggedValue(32, chosenShard(ctx)));
  const signingSecret = newSigningSecret();
  const id = newId("key");
  const row: ApiKeyRow = {
    id,
    userId,
    name,
    prefix: apiKey.slice(0, VISIBLE_PREFIX_LENGTH),
    keyHash: await hashApiKey(apiKey),
    // Sealed under the newest SECRETS_KEY and bound to this row (src/lib/sealed-secret.ts).
    signingSecretEnc: await sealSecret(signingSecret, secret(settings, "SECRETS_KEY"), id),
    createdAt: nowIso(),
    lastUsedAt: null,
    revokedAt: null,
    previousSigningSecretEnc: null,
    previousSecretExpiresAt: null,
    secretRotatedAt: null,
    allowedCallbackOrigins: null,
    mode,
  };
  await db.insert(apiKeys).values(row);
  return { key: toApiKeyRecord(row), apiKey, signingSecret };
}

export async function listApiKeys({ db }: ServiceContext, userId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => toApiKeyRecord(row));
}

export async function revokeApiKey({ db }: ServiceContext, userId: string, keyId: string): Promise<ApiKeyRecord> {
  if (!isIdOf("key", keyId)) throw notFound("Key");
  const revokedAt = nowIso();
  // Revoking twice keeps the first revocation time.
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
  if (row) return toApiKeyRecord(row);
  const [existing] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .limit(1);
  if (!existing) throw notFound("Key");
  return toApiKeyRecord(existing);
}
