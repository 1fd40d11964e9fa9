// Idempotency-Key on opening a session (draft-ietf-httpapi-idempotency-key-header, docs/api-contract.md §Idempotency): per
// API key (never the whole account: a test key's session must not answer a live key's request), for 24
// hours. The stored answer carries the session's nonce, so it is sealed under SECRETS_KEY and bound to its
// record, never kept readable. The first request with a key claims it with one conditional write and stores its
// answer; a retry with the same body gets that answer again, another body is 422, a retry while the first
// is still in flight is 409. A claim whose request never finished (its isolate died) is taken over after
// a lease, so one crash does not lock a key for a day. Old records: src/maintenance/prune-idempotency-keys.ts.
import { and, eq, sql } from "drizzle-orm";
import { idempotencyKeys } from "../../db/schema";
import { ApiError, validationFailed } from "../../errors";
import { sha256Hex } from "../../lib/crypto";
import { addSeconds, nowIso } from "../../lib/time";
import type { ServiceContext } from "../../context/service-context";
import { secretsKeys } from "../../config/secret-versions";
import { openSecret, sealSecret } from "../../lib/sealed-secret";
import type { AuthenticatedKey } from "../keys";

/** The record a stored answer is bound to: a sealed answer copied to another record does not open. */
const recordId = (keyId: string, key: string) => `idempotency:${keyId}:${key}`;

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claim without an answer after this long belongs to a request that will never finish. */
export const IN_FLIGHT_LEASE_SECONDS = 60;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export type StoredAnswer = { status: number; body: unknown; replayed: boolean };

/** The header's key: printable ASCII, at most 255 characters; a Structured Field string's quotes are dropped. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = /^"(.*)"$/.exec(header)?.[1] ?? header;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7E]+$/.test(key)) {
    throw validationFailed([{ path: "Idempotency-Key", message: `1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters.` }]);
  }
  return key;
}

/** SHA-256 of the request as validated: the same fields in the same order are the same request. */
export const requestFingerprint = (input: unknown) => sha256Hex(JSON.stringify(input));

/**
 * Runs `run` once per (API key, Idempotency-Key) and answers every retry with its stored answer. An
 * error thrown by `run` releases the key, so the retry after a failure is processed afresh.
 */
export async function idempotently(
  { db, settings }: ServiceContext,
  apiKey: AuthenticatedKey,
  key: string,
  fingerprint: string,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<StoredAnswer> {
  const { id: keyId, userId: accountId } = apiKey;
  const now = nowIso();
  const leaseEnd = addSeconds(now, -IN_FLIGHT_LEASE_SECONDS);
  // One round trip: insert the claim, or take over an expired record or an abandoned claim.
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({
      accountId,
      keyId,
      key,
      requestHash: fingerprint,
      statusCode: null,
      responseBody: null,
      createdAt: now,
      expiresAt: addSeconds(now, IDEMPOTENCY_TTL_SECONDS),
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.keyId, idempotencyKeys.key],
      set: {
        requestHash: sql`excluded.request_hash`,
        statusCode: null,
        responseBody: null,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
      },
      setWhere: sql`${idempotencyKeys.expiresAt} <= ${now} OR (${idempotencyKeys.statusCode} IS NULL AND ${idempotencyKeys.createdAt} <= ${leaseEnd})`,
    })
    .returning({ createdAt: idempotencyKeys.createdAt });
  const mine = and(eq(idempotencyKeys.keyId, keyId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.createdAt, now));
  if (!claimed) {
    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.keyId, keyId), eq(idempotencyKeys.key, key)))
      .limit(1);
    if (!existing) throw new ApiError("IDEMPOTENCY_IN_PROGRESS"); // released in between: the client retries
    if (existing.requestHash !== fingerprint) throw new ApiError("IDEMPOTENCY_KEY_REUSED");
    if (existing.statusCode === null || existing.responseBody === null) throw new ApiError("IDEMPOTENCY_IN_PROGRESS");
    const body = await openSecret(existing.responseBody, secretsKeys(settings), recordId(keyId, key));
    return { status: existing.statusCode, body: JSON.parse(body), replayed: true };
  }
  let answer: { status: number; body: unknown };
  try {
    answer = await run();
  } catch (error) {
    await db.delete(idempotencyKeys).where(mine);
    throw error;
  }
  const sealed = await sealSecret(JSON.stringify(answer.body), secretsKeys(settings)[0]!, recordId(keyId, key));
  await db.update(idempotencyKeys).set({ statusCode: answer.status, responseBody: sealed }).where(mine);
  return { ...answer, replayed: false };
}
