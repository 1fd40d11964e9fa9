// The spent-token store: a row holds a nonce hash and a key id, nothing else; a second spend is 409;
// rows of keys no longer published are pruned, and only those.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { ageTokenChallenge, loadTokenKeys, verifyAgeToken } from "../../src/domain/age-tokens";
import { pruneSpentAgeTokens } from "../../src/maintenance/prune-spent-age-tokens";
import { DEV_SETTING, fetchTokens, spendAgeToken } from "./helpers";

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const countFor = async (tokenKeyId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM spent_age_tokens WHERE token_key_id = ?").bind(tokenKeyId).first<{ n: number }>())!.n;

describe("spent-token store", () => {
  it("keeps only the nonce hash and the key id: no time, no account, no session", async () => {
    const record = { nonceHash: randomHex(32), tokenKeyId: randomHex(32) };
    await spendAgeToken(database(env.DB), record);
    const row = await env.DB.prepare("SELECT * FROM spent_age_tokens WHERE nonce_hash = ?").bind(record.nonceHash).first();
    expect(row).toEqual({ nonce_hash: record.nonceHash, token_key_id: record.tokenKeyId });
  });

  it("refuses the same nonce hash twice with 409 AGE_TOKEN_SPENT, even when both spends race", async () => {
    const record = { nonceHash: randomHex(32), tokenKeyId: randomHex(32) };
    const results = await Promise.allSettled([spendAgeToken(database(env.DB), record), spendAgeToken(database(env.DB), record)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "AGE_TOKEN_SPENT", status: 409 } });
  });

  it("prunes the records of keys retired for the grace period, and keeps the published keys' records", async () => {
    const [published, retired] = [randomHex(32), randomHex(32)];
    const db = database(env.DB);
    for (const tokenKeyId of [published, published, retired, retired, retired])
      await spendAgeToken(db, { nonceHash: randomHex(32), tokenKeyId });
    const kept = { nonceHash: randomHex(32), tokenKeyId: published };
    await spendAgeToken(db, kept);
    // The first run records the retirement and deletes nothing; one a grace period later deletes.
    const now = Date.now();
    expect((await pruneSpentAgeTokens(env.DB, [published], new Date(now), 30)).deleted).toBe(0);
    expect(await countFor(retired)).toBe(3);
    const pruned = await pruneSpentAgeTokens(env.DB, [published], new Date(now + 30 * 86_400_000), 30);
    expect(pruned.deleted).toBeGreaterThanOrEqual(3);
    expect(await countFor(retired)).toBe(0);
    expect(await countFor(published)).toBe(3);
    await expect(spendAgeToken(db, kept)).rejects.toMatchObject({ code: "AGE_TOKEN_SPENT" });
  });

  it("prunes nothing when given no published key (a setting that failed to load must not wipe the records)", async () => {
    const tokenKeyId = randomHex(32);
    await spendAgeToken(database(env.DB), { nonceHash: randomHex(32), tokenKeyId });
    expect(await pruneSpentAgeTokens(env.DB, [], new Date(Date.now() + 365 * 86_400_000), 30)).toEqual({
      deleted: 0,
      more: false,
      retired: 0,
      republished: 0,
    });
    expect(await countFor(tokenKeyId)).toBe(1);
  });
});

describe("spending verified tokens", () => {
  const challenge = ageTokenChallenge("https://age.example.com");
  const verify = async (token: string) =>
    verifyAgeToken(token, { keys: await loadTokenKeys(DEV_SETTING), expectedChallenge: challenge, ageRequired: 18 });

  it("a valid token approves once, and its second spend is refused with 409 AGE_TOKEN_SPENT", async () => {
    const db = database(env.DB);
    const [token] = await fetchTokens(await loadTokenKeys(DEV_SETTING), 18, challenge);
    await spendAgeToken(db, (await verify(token!)).spent);
    await expect(spendAgeToken(db, (await verify(token!)).spent)).rejects.toMatchObject({ code: "AGE_TOKEN_SPENT", status: 409 });
  });

  it("tokens of one batch are spent independently", async () => {
    const db = database(env.DB);
    const tokens = await fetchTokens(await loadTokenKeys(DEV_SETTING), 18, challenge, 3);
    for (const token of tokens) await spendAgeToken(db, (await verify(token)).spent);
  });
});
