// Re-seals signing secrets that are not under the newest SECRETS_KEY in the current format: rows under
// SECRETS_KEY_PREVIOUS, and legacy "v1." rows (no row binding). Both slots of a key are covered: the
// current secret (bound to the row) and, during a webhook-secret rotation's grace, the previous one
// (bound to the row and its slot, so the two cannot be swapped). Retiring the previous key is safe once
// a run finds none left on every shard: the scheduled run (src/maintenance/run.ts) logs so once it has
// each shard's result (reencryptionSummary), with the count of rows still to do otherwise.
import { previousSecretRowId } from "../callbacks/signing-secret";
import { openSecret, sealSecret, sealedKeyId } from "../lib/sealed-secret";
import { keyId } from "../lib/key-id";
import { log } from "../lib/log";
import { secretsKeys } from "../config/secret-versions";
import type { ServiceContext } from "../context/service-context";

export const REENCRYPT_ROWS_PER_RUN = 100;

export type ReencryptResult = { reencrypted: number; failed: number; remaining: number };

/** The sealed columns of api_keys, each with the additional-data row id its ciphertext is bound to. */
const SLOTS = [
  { column: "signing_secret_enc", rowId: (id: string) => id },
  { column: "previous_signing_secret_enc", rowId: previousSecretRowId },
] as const;

export async function reencryptSigningSecrets(ctx: ServiceContext): Promise<ReencryptResult> {
  const keys = secretsKeys(ctx.settings);
  const d1 = ctx.db.$client;
  const current = keys[0]!;
  const prefix = `${await keyId(current)}.`;
  let reencrypted = 0;
  let failed = 0;
  let remaining = 0;
  for (const { column, rowId } of SLOTS) {
    const stale = `${column} IS NOT NULL AND substr(${column}, 1, ?) != ?`;
    const { results } = await d1
      .prepare(`SELECT id, ${column} AS sealed FROM api_keys WHERE ${stale} ORDER BY id LIMIT ?`)
      .bind(prefix.length, prefix, REENCRYPT_ROWS_PER_RUN)
      .all<{ id: string; sealed: string }>();
    for (const row of results) {
      let plaintext: string;
      try {
        plaintext = await openSecret(row.sealed, keys, rowId(row.id));
      } catch {
        // Sealed under a key that is no longer configured (retired too early) or altered: left as it is.
        failed++;
        log("error", "signing secret opens under no configured SECRETS_KEY", {
          keyId: row.id,
          slot: column,
          sealedWith: sealedKeyId(row.sealed),
        });
        continue;
      }
      // Only if the row still holds what was read: a concurrent change (a rotation) wins.
      const update = await d1
        .prepare(`UPDATE api_keys SET ${column} = ? WHERE id = ? AND ${column} = ?`)
        .bind(await sealSecret(plaintext, current, rowId(row.id)), row.id, row.sealed)
        .run();
      reencrypted += update.meta.changes ?? 0;
    }
    const left = await d1.prepare(`SELECT count(*) AS n FROM api_keys WHERE ${stale}`).bind(prefix.length, prefix).first<{ n: number }>();
    remaining += left?.n ?? 0;
  }
  return { reencrypted, failed, remaining };
}

/** One line for the whole deployment: the previous key may go only when no shard has a row left. */
export function logReencryptionSummary(perShard: readonly ReencryptResult[]): void {
  const total = perShard.reduce(
    (sum, r) => ({ reencrypted: sum.reencrypted + r.reencrypted, failed: sum.failed + r.failed, remaining: sum.remaining + r.remaining }),
    { reencrypted: 0, failed: 0, remaining: 0 },
  );
  if (total.remaining === 0) {
    log("info", "every signing secret is sealed under the newest SECRETS_KEY: SECRETS_KEY_PREVIOUS can be removed", {
      reencrypted: total.reencrypted,
    });
  } else {
    log("warn", "signing secrets still sealed under an older SECRETS_KEY or format", total);
  }
}
