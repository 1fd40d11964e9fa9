// Accounts sharded across D1 databases (docs/operations.md): where accounts land, and that a request reaches its
// account's shard from the value it presents (API key, account token) and never reads another.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { ServiceContext } from "../../src/context/service-context";
import { KEY_TAGS_REMEMBERED, shardOfApiKey } from "../../src/context/shard-routing";
import { createApp } from "../../src/app";
import { apiKeys, users } from "../../src/db/schema";
import { database } from "../../src/db/client";
import { sha256Hex } from "../../src/lib/crypto";
import { toBase64Url } from "../../src/lib/encoding";
import { newId } from "../../src/lib/ids";
import { signAccountToken } from "../../src/lib/jwt";
import { newTaggedValue } from "../../src/lib/shard-tag";
import { nowIso } from "../../src/lib/time";
import { eq } from "drizzle-orm";
import { register } from "../helpers/accounts";
import { countingEnv } from "../helpers/counting-env";
import { buildRequest, call, expectError } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { openSession, poll } from "../helpers/sessions";
import { shardBindings } from "../helpers/shards";

/** The shards whose users table holds the id: found by reading every binding, not by decoding the id. */
async function shardsHolding(userId: string): Promise<number[]> {
  const found: number[] = [];
  for (const [shard, d1] of shardBindings().entries()) {
    if (await d1.prepare("SELECT 1 FROM users WHERE id = ?").bind(userId).first()) found.push(shard);
  }
  return found;
}

describe("where accounts live", () => {
  it("the tests run two shards", () => {
    expect(env.D1_SHARDS).toBe("2");
    expect(shardBindings()).toHaveLength(2);
  });

  it("accounts registered through the API land on both shards, each on exactly one", { timeout: 60_000 }, async () => {
    const landed = new Set<number>();
    for (let i = 0; i < 24; i++) {
      const account = await register();
      const holding = await shardsHolding(account.user.id);
      expect(holding).toHaveLength(1);
      landed.add(holding[0]!);
      // Signed in at once on whichever shard: the account token names it.
      expect((await call("GET", "/api/users/me", { token: account.token })).status).toBe(200);
    }
    expect([...landed].sort()).toEqual([0, 1]);
  });

  it("NEW_ACCOUNT_SHARDS keeps new accounts off the shards it does not list", { timeout: 60_000 }, async () => {
    const onlyShard1 = { ...env, NEW_ACCOUNT_SHARDS: "1" } as Env;
    for (let i = 0; i < 6; i++) {
      const email = `only-one-${Date.now()}-${i}@example.test`;
      const res = await createApp().fetch(
        buildRequest("POST", "/api/auth/register", {
          body: { email, password: "correct horse battery", userType: "PERSONAL" },
          headers: { "cf-connecting-ip": `203.0.113.${i + 1}` },
        }),
        onlyShard1,
        createExecutionContext(),
      );
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as { data: { user: { id: string } } };
      expect(await shardsHolding(data.user.id)).toEqual([1]);
    }
  });
});

describe("a merchant on shard 1", () => {
  it("opens, polls and reads usage without one query to shard 0; the session's log row is on shard 1", async () => {
    const merchant = await seedMerchant("shard one", "live", { shard: 1 });
    const user = await seedEndUser("1990-01-01", { shard: 1 });
    const { env: counted, counts } = countingEnv();
    const run = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const ctx = createExecutionContext();
      const res = await createApp().fetch(buildRequest(method, path, { headers, body }), counted, ctx);
      await waitOnExecutionContext(ctx);
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    };
    const opened = await run(
      "POST",
      "/api/age-verification/session",
      { "x-api-key": merchant.apiKey },
      { age_required: 18, callback_url: "https://m.example.com/cb" },
    );
    expect(opened.status).toBe(201);
    const sessionId = opened.body.data.session_id as string;
    expect((await run("GET", `/api/age-verification/session/${sessionId}`, { "x-api-key": merchant.apiKey })).status).toBe(200);
    expect(
      (
        await run(
          "POST",
          `/api/age-verification/session/${sessionId}/complete`,
          { authorization: `Bearer ${user.token}` },
          { nonce: opened.body.data.nonce, consent: true },
        )
      ).status,
    ).toBe(200);
    expect((await run("GET", "/api/usage/summary", { authorization: `Bearer ${merchant.account.token}` })).status).toBe(200);
    expect((await run("GET", "/api/usage/sessions", { authorization: `Bearer ${merchant.account.token}` })).status).toBe(200);
    expect(counts.d1ByShard[0]).toBe(0);
    expect(counts.d1ByShard[1]).toBeGreaterThanOrEqual(5);
    const [zero, one] = shardBindings();
    expect(await zero!.prepare("SELECT 1 FROM verification_sessions WHERE id = ?").bind(sessionId).first()).toBeNull();
    expect(await one!.prepare("SELECT status FROM verification_sessions WHERE id = ?").bind(sessionId).first()).toEqual({
      status: "APPROVED",
    });
  });

  it("its key is not found on shard 0: the same key's hash copied there does not authenticate a shard-0 request", async () => {
    const merchant = await seedMerchant("shard one", "live", { shard: 1 });
    // The key names shard 1, so the request goes there, whatever shard 0 holds.
    const opened = await openSession(merchant.apiKey);
    expect((await poll(merchant.apiKey, opened.session_id)).status).toBe(200);
    const [zero] = shardBindings();
    expect(await zero!.prepare("SELECT 1 FROM api_keys WHERE user_id = ?").bind(merchant.account.id).first()).toBeNull();
  });
});

describe("values made before sharding", () => {
  /** An account and key made the 1.x way: an untagged id and key, on the database that is now shard 0. */
  async function legacyMerchant(keyBody: (bytes: Uint8Array) => string) {
    const seeded = await seedMerchant("to be made legacy", "live", { shard: 0 });
    const id = newId("usr");
    const home = database(env.DB);
    const now = nowIso();
    await home.insert(users).values({
      id,
      email: `legacy-${Date.now()}@example.test`,
      passwordHash: "x",
      userType: "BUSINESS",
      companyName: "Old Shop",
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
    });
    const apiKey = keyBody(crypto.getRandomValues(new Uint8Array(32)));
    await home
      .update(apiKeys)
      .set({ userId: id, keyHash: await sha256Hex(apiKey) })
      .where(eq(apiKeys.id, seeded.keyId));
    return { id, apiKey, token: await signAccountToken(env.JWT_SECRET!, id, 0) };
  }

  it("a live key made before sharding still opens and polls, on shard 0", async () => {
    const legacy = await legacyMerchant((bytes) => `svc_sk_live_${toBase64Url(bytes)}`);
    const opened = await openSession(legacy.apiKey);
    expect((await poll(legacy.apiKey, opened.session_id)).body.data.status).toBe("PENDING");
    const [zero] = shardBindings();
    expect(await zero!.prepare("SELECT account_id FROM verification_sessions WHERE id = ?").bind(opened.session_id).first()).toEqual({
      account_id: legacy.id,
    });
  });

  it("a 1.0.0 key (svc_sk_ and 43 characters) still authenticates, on shard 0", async () => {
    const legacy = await legacyMerchant((bytes) => `svc_sk_${toBase64Url(bytes)}`);
    const opened = await openSession(legacy.apiKey);
    expect((await poll(legacy.apiKey, opened.session_id)).status).toBe(200);
  });

  it("an account token of an untagged account id still signs in, on shard 0", async () => {
    const legacy = await legacyMerchant((bytes) => `svc_sk_live_${toBase64Url(bytes)}`);
    const me = await call("GET", "/api/users/me", { token: legacy.token });
    expect(me.status).toBe(200);
    expect(me.body.data.user.id).toBe(legacy.id);
  });
});

describe("forged tags", () => {
  it("a key tagged for a shard this deployment does not have is an unknown key: 401", async () => {
    const forged = `svc_sk_live_${await newTaggedValue(32, 7)}`;
    expectError(
      await call("GET", `/api/age-verification/session/ses_${"A".repeat(24)}`, { headers: { "x-api-key": forged } }),
      401,
      "UNAUTHORIZED",
    );
  });
});

describe("the key tags remembered per isolate", () => {
  const twoShards = { shards: [{}, {}] } as unknown as ServiceContext;
  const keyOn = async (shard: number) => `svc_sk_live_${await newTaggedValue(32, shard)}`;

  it("reads a key's tag once: the next request with that key computes no digest for it", async () => {
    const key = await keyOn(1);
    const keyHash = await sha256Hex(key);
    expect(await shardOfApiKey(twoShards, key, keyHash)).toBe(1);
    const digest = vi.spyOn(crypto.subtle, "digest");
    try {
      expect(await shardOfApiKey(twoShards, key, keyHash)).toBe(1);
      expect(digest).not.toHaveBeenCalled();
    } finally {
      digest.mockRestore();
    }
  });

  it("remembers by the key's hash: keys on different shards keep their own, and a key that is not remembered is read", async () => {
    const [on0, on1] = [await keyOn(0), await keyOn(1)];
    expect(await shardOfApiKey(twoShards, on1, await sha256Hex(on1))).toBe(1);
    expect(await shardOfApiKey(twoShards, on0, await sha256Hex(on0))).toBe(0);
    expect(await shardOfApiKey(twoShards, on1, await sha256Hex(on1))).toBe(1);
    // A tag naming a shard the deployment lacks still reads as shard 0, remembered or not.
    const on7 = await keyOn(7);
    expect(await shardOfApiKey(twoShards, on7, await sha256Hex(on7))).toBe(0);
    expect(await shardOfApiKey(twoShards, on7, await sha256Hex(on7))).toBe(0);
  });

  it("holds at most KEY_TAGS_REMEMBERED keys: past that it starts again", async () => {
    const first = await keyOn(1);
    const firstHash = await sha256Hex(first);
    await shardOfApiKey(twoShards, first, firstHash);
    for (let i = 0; i < KEY_TAGS_REMEMBERED; i++) await shardOfApiKey(twoShards, `made-up-${i}`, `hash-${i}`);
    const digest = vi.spyOn(crypto.subtle, "digest");
    try {
      expect(await shardOfApiKey(twoShards, first, firstHash)).toBe(1);
      expect(digest).toHaveBeenCalledTimes(1);
    } finally {
      digest.mockRestore();
    }
  });
});
