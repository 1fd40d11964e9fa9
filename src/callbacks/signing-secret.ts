// The signing secret of a key, decrypted for one attempt inside the consumer and never stored or
// logged in clear.
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { apiKeys } from "../db/schema";
import { openSecret } from "../lib/sealed-secret";
import { secretsKeys } from "../secret-versions";

/**
 * null when the key no longer exists (its account was deleted). A revoked key still signs the
 * callbacks of the sessions it opened: the merchant still holds its secret for those.
 */
export async function loadSigningSecret(db: Database, env: Env, keyId: string): Promise<string | null> {
  const row = await db.query.apiKeys.findFirst({ columns: { signingSecretEnc: true }, where: eq(apiKeys.id, keyId) });
  if (!row) return null;
  return openSecret(row.signingSecretEnc, secretsKeys(env), keyId);
}
