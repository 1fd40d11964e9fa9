// The spent-token set is pruned only for keys that can no longer verify a token (docs/double-blind.md
// "Where spent tokens are kept"): a key's spent records go once the key has been retired (absent from
// AGE_TOKEN_KEYS, current and previous) for AGE_TOKEN_RETIREMENT_DAYS, counted from the run that first
// found it absent and recorded in retired_token_keys. One run's reading of the setting deletes nothing:
// a setting deployed without a key still in service, then rolled back, must not make that key's spent
// tokens spendable again; and a key whose grace has passed stays recorded, so that publishing it again
// makes none of its tokens spendable. Run by the scheduled handler (run.ts) with the ids of the keys it loaded.
import { DAY_MS } from "../lib/time";
import { deleteInBatches, type Pruned } from "./batch-delete";

/** At most this many keys with spent records are looked at per run: a deployment has a few per threshold. */
const MAX_KEYS_PER_RUN = 64;
/**
 * The retirement time of a key whose spent records this service has begun to prune: before every ISO
 * time, so that no later grace setting, however long, reads the key as still within its grace and forgets
 * its retirement (which would make its pruned tokens spendable again once it is published).
 */
export const PAST_GRACE = "0000-01-01T00:00:00.000Z";

/** The distinct key ids of the spent set, one index seek each (no scan of the rows). */
async function spentKeyIds(db: D1Database): Promise<string[]> {
  const next = db.prepare("SELECT min(token_key_id) AS id FROM spent_age_tokens WHERE token_key_id > ?");
  const ids: string[] = [];
  let after = "";
  while (ids.length < MAX_KEYS_PER_RUN) {
    const row = await next.bind(after).first<{ id: string | null }>();
    if (!row?.id) break;
    ids.push(row.id);
    after = row.id;
  }
  return ids;
}

/**
 * Records the retirement of every key with spent records that is not published now (unless recorded
 * earlier), forgets it for every published key still within its grace, then deletes the records of keys
 * retired for the grace period, marking each such key PAST_GRACE first (a later, longer grace setting
 * must not bring it back within its grace). A key past its grace keeps its record for good, published again or not:
 * its spent records are (or may be) gone, so the record is what refuses its tokens from then on
 * (src/db/spent-age-tokens.ts); `republished` counts such keys found in the setting, for the operator.
 * An empty list (no token keys loaded) changes nothing.
 */
export async function pruneSpentAgeTokens(
  db: D1Database,
  publishedKeyIds: readonly string[],
  now: Date,
  graceDays: number,
): Promise<Pruned & { retired: number; republished: number }> {
  if (publishedKeyIds.length === 0) return { deleted: 0, more: false, retired: 0, republished: 0 };
  const published = JSON.stringify(publishedKeyIds);
  const retiredBefore = new Date(now.getTime() - graceDays * DAY_MS).toISOString();
  const unpublished = (await spentKeyIds(db)).filter((id) => !publishedKeyIds.includes(id));
  const [, republished] = await db.batch<{ n: number }>([
    db
      .prepare("DELETE FROM retired_token_keys WHERE token_key_id IN (SELECT value FROM json_each(?)) AND retired_at > ?")
      .bind(published, retiredBefore),
    db.prepare("SELECT count(*) AS n FROM retired_token_keys WHERE token_key_id IN (SELECT value FROM json_each(?))").bind(published),
    ...unpublished.map((id) =>
      db
        .prepare("INSERT INTO retired_token_keys (token_key_id, retired_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
        .bind(id, now.toISOString()),
    ),
    // The keys whose records are pruned below are past their grace for good, whatever a later setting says.
    db
      .prepare(
        "UPDATE retired_token_keys SET retired_at = ?1 WHERE retired_at <= ?2 AND retired_at <> ?1 AND token_key_id NOT IN (SELECT value FROM json_each(?3))",
      )
      .bind(PAST_GRACE, retiredBefore, published),
  ]);
  const pruned = await deleteInBatches(
    db,
    "spent_age_tokens",
    "token_key_id IN (SELECT token_key_id FROM retired_token_keys WHERE retired_at <= ?) AND token_key_id NOT IN (SELECT value FROM json_each(?))",
    [retiredBefore, published],
  );
  return { ...pruned, retired: unpublished.length, republished: republished?.results[0]?.n ?? 0 };
}
