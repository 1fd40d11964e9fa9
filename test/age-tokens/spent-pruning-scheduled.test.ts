// The scheduled handler prunes the spent records of retired token keys (src/maintenance/run.ts,
// prune-spent-age-tokens.ts) once retired for the grace period: a published key's records stay, however old;
// without any token keys nothing goes.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { loadTokenKeys } from "../../src/domain/age-tokens";
import { runScheduled } from "../maintenance/helpers";
import { DEV_SETTING, spendAgeToken } from "./helpers";

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const countFor = async (tokenKeyId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM spent_age_tokens WHERE token_key_id = ?").bind(tokenKeyId).first<{ n: number }>())!.n;

describe("scheduled pruning of spent age tokens", () => {
  it("deletes a retired key's records and keeps every published key's", async () => {
    const published = (await loadTokenKeys(DEV_SETTING)).map((k) => k.tokenKeyIdHex);
    const retired = randomHex(32);
    const db = database(env.DB);
    for (const tokenKeyId of [...published, retired, retired]) await spendAgeToken(db, { nonceHash: randomHex(32), tokenKeyId });
    const before = await Promise.all(published.map(countFor));
    await runScheduled({ ...env, AGE_TOKEN_KEYS: undefined } as Env, Date.now() + 400 * 86_400_000);
    expect(await countFor(retired)).toBe(2);
    // Found retired now; its records go 30 days (AGE_TOKEN_RETIREMENT_DAYS) later.
    const found = Date.now();
    await runScheduled(env, found);
    expect(await countFor(retired)).toBe(2);
    await runScheduled(env, found + 30 * 86_400_000);
    expect(await countFor(retired)).toBe(0);
    expect(await Promise.all(published.map(countFor))).toEqual(before);
  });
});
