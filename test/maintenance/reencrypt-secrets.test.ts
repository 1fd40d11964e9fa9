// SECRETS_KEY rotation, carried out by the scheduled run: rows under the previous key and legacy "v1."
// rows are re-sealed under the new key, bound to their row; the run says when the old key can go.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { secretsKeys } from "../../src/config/secret-versions";
import { apiKeys } from "../../src/db/schema";
import { toBase64 } from "../../src/lib/encoding";
import { keyId } from "../../src/lib/key-id";
import { legacySeal } from "../helpers/legacy-seal";
import { openSecret } from "../../src/lib/sealed-secret";
import { reencryptSigningSecrets } from "../../src/maintenance/reencrypt-secrets";
import { seedMerchant } from "../helpers/seed";
import { runScheduled } from "./helpers";
import { settingsOf } from "../../src/config/settings";
import { serviceContext } from "../../src/service";
import { dbOfAccount } from "../helpers/shards";
import { dbHolding, shardBindings } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

afterEach(() => vi.restoreAllMocks());

const NEW_KEY = toBase64(crypto.getRandomValues(new Uint8Array(32)));

const sealedOf = async (id: string) =>
  (await rowWhere(await dbHolding("SELECT 1 FROM api_keys WHERE id = ?", id), apiKeys, eq(apiKeys.id, id)))!.signingSecretEnc;
/** What the callback consumer does with a key's sealed secret under a configuration. */
const signingSecretUnder = async (config: Env, id: string) => openSecret(await sealedOf(id), secretsKeys(settingsOf(config)), id);

describe("re-encrypting signing secrets under the newest SECRETS_KEY", () => {
  it("re-seals rows under the previous key and legacy rows; they open under the new key alone, bound to their row", async () => {
    const current = await seedMerchant("under the old key");
    const legacy = await seedMerchant("legacy row");
    await (await dbOfAccount(legacy.account.id))
      .update(apiKeys)
      .set({ signingSecretEnc: await legacySeal(legacy.signingSecret, env.SECRETS_KEY!) })
      .where(eq(apiKeys.id, legacy.keyId));

    const rotated = { ...env, SECRETS_KEY: NEW_KEY, SECRETS_KEY_PREVIOUS: env.SECRETS_KEY } as Env;
    // During the rotation, before the job: old rows still open.
    expect(await signingSecretUnder(rotated, current.keyId)).toBe(current.signingSecret);
    expect(await signingSecretUnder(rotated, legacy.keyId)).toBe(legacy.signingSecret);

    const info = vi.spyOn(console, "log");
    const eachShard = async () =>
      (await Promise.all(shardBindings().map((_, shard) => reencryptSigningSecrets(serviceContext(rotated).onShard(shard))))).reduce(
        (sum, r) => sum + r.remaining,
        0,
      );
    for (let run = 0; run < 20 && (await eachShard()) > 0; run++);
    await runScheduled(rotated);
    expect(info.mock.calls.flat().join("\n")).toContain("SECRETS_KEY_PREVIOUS can be removed");

    const newId = await keyId(NEW_KEY);
    for (const merchant of [current, legacy]) {
      const sealed = await sealedOf(merchant.keyId);
      expect(sealed.startsWith(`${newId}.`)).toBe(true);
      expect(await openSecret(sealed, [NEW_KEY], merchant.keyId)).toBe(merchant.signingSecret);
      await expect(openSecret(sealed, [NEW_KEY], merchant === current ? legacy.keyId : current.keyId)).rejects.toThrow();
    }
    // The previous key can go: everything opens without it.
    const retired = { ...env, SECRETS_KEY: NEW_KEY } as Env;
    expect(await signingSecretUnder(retired, current.keyId)).toBe(current.signingSecret);
    // New keys are sealed under the new key.
    const { createApiKey } = await import("../../src/domain/keys/api-keys");
    const fresh = await createApiKey(serviceContext(retired).onShard(current.shard), current.account.id, "after rotation");
    expect((await sealedOf(fresh.key.id)).startsWith(`${newId}.`)).toBe(true);
  });

  it("a row that opens under no configured key is left alone and reported; the job does not say the old key can go", async () => {
    const merchant = await seedMerchant("orphaned");
    const rotated = { ...env, SECRETS_KEY: NEW_KEY } as Env; // previous key dropped too early
    const before = await sealedOf(merchant.keyId);
    const errors = vi.spyOn(console, "error");
    const result = await reencryptSigningSecrets(serviceContext(rotated).onShard(merchant.shard));
    expect(result.failed).toBeGreaterThan(0);
    expect(result.remaining).toBeGreaterThan(0);
    expect(await sealedOf(merchant.keyId)).toBe(before);
    expect(errors.mock.calls.flat().join("\n")).toContain(merchant.keyId);
  });
});
