// Re-seals signing secrets that are not under the newest SECRETS_KEY in the current format: rows under
// SECRETS_KEY_PREVIOUS, and legacy "v1." rows (no row binding). Retiring the previous key is safe once a
// run finds none left: it logs so, with the count of rows still to do otherwise.
import { openSecret, sealSecret, sealedKeyId } from "../lib/sealed-secret";
import { keyId } from "../lib/key-id";
import { log } from "../lib/log";
import { secretsKeys } from "../secret-versions";

export const REENCRYPT_ROWS_PER_RUN = 100;

export type ReencryptResult = { reencrypted: number; failed: number; remaining: number };

export async function reencryptSigningSecrets(env: Env): Promise<ReencryptResult> {
  const keys = secretsKeys(env);
  const current = keys[0]!;
  const prefix = `${await keyId(current)}.`;
  const { results } = await env.DB.prepare(
    "SELECT id, signing_secret_enc AS sealed FROM api_keys WHERE substr(signing_secret_enc, 1, ?) != ? ORDER BY id LIMIT ?",
  )
    .bind(prefix.length, prefix, REENCRYPT_ROWS_PER_RUN)
    .all<{ id: string; sealed: string }>();
  let reencrypted = 0;
  let failed = 0;
  for (const row of results) {
    let plaintext: string;
    try {
      plaintext = await openSecret(row.sealed, keys, row.id);
    } catch {
      // Sealed under a key that is no longer configured (retired too early) or altered: left as it is.
      failed++;
      log("error", "signing secret opens under no configured SECRETS_KEY", { keyId: row.id, sealedWith: sealedKeyId(row.sealed) });
      continue;
    }
    // Only if the row still holds what was read: a concurrent change wins.
    const update = await env.DB.prepare("UPDATE api_keys SET signing_secret_enc = ? WHERE id = ? AND signing_secret_enc = ?")
      .bind(await sealSecret(plaintext, current, row.id), row.id, row.sealed)
      .run();
    reencrypted += update.meta.changes ?? 0;
  }
  const left = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE substr(signing_secret_enc, 1, ?) != ?").bind(prefix.length, prefix).first<{ n: number }>();
  const remaining = left?.n ?? 0;
  if (remaining === 0) {
    log("info", "every signing secret is sealed under the newest SECRETS_KEY: SECRETS_KEY_PREVIOUS can be removed", { reencrypted });
  } else {
    log("warn", "signing secrets still sealed under an older SECRETS_KEY or format", { reencrypted, remaining, failed });
  }
  return { reencrypted, failed, remaining };
}
