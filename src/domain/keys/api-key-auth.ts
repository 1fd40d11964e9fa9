// X-API-Key authentication: one indexed D1 read by hash. A revoked key, a key of a deleted account
// (its row is gone with the account) and a malformed key are all the same 401.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { apiKeys } from "../../db/schema";
import { API_KEY_PREFIX, type KeyMode } from "./api-keys";
import type { ServiceContext } from "../../context/service-context";
import { prepared } from "../../db/prepared";

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

// The query of every merchant request, in D1's own prepared statement rather than drizzle's builder
// (src/db/prepared.ts): only the hash is bound. Column names are the schema's
// (src/db/schema.ts: api_keys, users); the key tests (test/routes/keys, test/merchant/test-mode,
// test/merchant-callbacks/allowed-origins, test/routes/first-screen) cover every field read here.
const KEY_BY_HASH =
  "SELECT k.id, k.user_id, k.last_used_at, k.allowed_callback_origins, k.mode, u.company_name " +
  "FROM api_keys k INNER JOIN users u ON u.id = k.user_id WHERE k.key_hash = ? AND k.revoked_at IS NULL LIMIT 1";
type KeyRow = {
  id: string;
  user_id: string;
  last_used_at: string | null;
  allowed_callback_origins: string | null;
  mode: KeyMode;
  company_name: string | null;
};

/** Whether a presented value has an API key's shape: anything else is refused before it is hashed or looked up. */
export const isApiKeyShaped = (presented: string) => API_KEY_SHAPE.test(presented);

/**
 * The live key whose hashApiKey is `keyHash`, or null. The caller has checked the presented value's shape
 * (isApiKeyShaped) and hashed it to find its shard (src/http/require-api-key.ts).
 */
export async function authenticateApiKey({ db }: ServiceContext, keyHash: string): Promise<AuthenticatedKey | null> {
  const row = await prepared(db.$client, KEY_BY_HASH).bind(keyHash).first<KeyRow>();
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    companyName: row.company_name,
    lastUsedAt: row.last_used_at,
    mode: row.mode,
    allowedCallbackOrigins: row.allowed_callback_origins === null ? null : (JSON.parse(row.allowed_callback_origins) as string[]),
  };
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
