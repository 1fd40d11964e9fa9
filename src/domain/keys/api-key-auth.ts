// X-API-Key authentication: one indexed D1 read by hash. A revoked key, a key of a deleted account
// (its row is gone with the account) and a malformed key are all the same 401.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiKeys, users } from "../../db/schema";
import { API_KEY_PREFIX, hashApiKey, type KeyMode } from "./api-keys";
import type { ServiceContext } from "../../context/service-context";

// svc_sk_live_…, svc_sk_test_… or a 1.0.0 svc_sk_…; the mode is read from the key's row, not its text.
const API_KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}(live_|test_)?[A-Za-z0-9_-]{43}$`);
/** lastUsedAt is a hint for the console, so it is written at most once a minute per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export type AuthenticatedKey = {
  id: string;
  userId: string;
  companyName: string | null;
  lastUsedAt: string | null;
  /** live or test: read from the key's row, never from its text. */
  mode: KeyMode;
  /** Read in the same query: the open path checks callback_url against it (src/domain/merchant-callbacks/allowed-origins.ts). */
  allowedCallbackOrigins: string[] | null;
};

const keyByHash = (db: Database) =>
  db
    .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt, allowedCallbackOrigins: apiKeys.allowedCallbackOrigins, mode: apiKeys.mode, companyName: users.companyName })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
    .limit(1)
    .prepare();

// The query of every merchant request, built once per database handle (so once per isolate) instead of
// per request: building it was a measurable part of a poll (docs/performance.md). Only the hash is bound.
const prepared = new WeakMap<Database, ReturnType<typeof keyByHash>>();

export async function authenticateApiKey({ db }: ServiceContext, presented: string | undefined): Promise<AuthenticatedKey | null> {
  if (!presented || !API_KEY_SHAPE.test(presented)) return null;
  let query = prepared.get(db);
  if (!query) {
    query = keyByHash(db);
    prepared.set(db, query);
  }
  const [row] = await query.all({ hash: await hashApiKey(presented) });
  return row ?? null;
}

export const lastUsedIsStale = (key: AuthenticatedKey, now: number) =>
  key.lastUsedAt === null || now - Date.parse(key.lastUsedAt) >= LAST_USED_RESOLUTION_MS;

/** Conditional, so concurrent requests in the same minute write once. */
export const touchLastUsed = ({ db }: ServiceContext, keyId: string, now: number) =>
  db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now).toISOString() })
    .where(
      and(
        eq(apiKeys.id, keyId),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now - LAST_USED_RESOLUTION_MS).toISOString())),
      ),
    );
