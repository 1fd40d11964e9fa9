// An Idempotency-Key is scoped to the API key that sent it, and its stored answer keeps no nonce readable
// (docs/api-contract.md §Idempotency): a test key's session never answers the same account's live key, and a
// database reader finds the first answer sealed, bound to its record.
import { describe, expect, it } from "vitest";
import { idempotencyKeys } from "../../src/db/schema";
import { call } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { CALLBACK_URL } from "../helpers/sessions";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { root } from "../helpers/seed";
import { dbOfAccount } from "../helpers/shards";

const body = { age_required: 18, callback_url: CALLBACK_URL };
const open = (apiKey: string, key: string) =>
  call("POST", "/api/age-verification/session", { apiKey, body, headers: { "Idempotency-Key": key } });

describe("Idempotency-Key scope and storage", () => {
  it("the same key from a test key and a live key of one account opens two sessions, each in its own mode", async () => {
    const merchant = await seedMerchant("live key", "live");
    const testKey = await createApiKey(root().onShard(merchant.account.shard), merchant.account.id, "test key", "test");
    const fromTest = await open(testKey.apiKey, "order-4711");
    expect(fromTest.status).toBe(201);
    expect(fromTest.body.data.livemode).toBe(false);
    const fromLive = await open(merchant.apiKey, "order-4711");
    expect(fromLive.status).toBe(201);
    expect(fromLive.headers.get("idempotent-replayed")).toBeNull();
    expect(fromLive.body.data.livemode).toBe(true);
    expect(fromLive.body.data.session_id).not.toBe(fromTest.body.data.session_id);
    // Each key still replays its own answer.
    const again = await open(merchant.apiKey, "order-4711");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(fromLive.body.data);
  });

  it("the stored answer holds no nonce or session id in clear, and a sealed answer moved to another record does not open", async () => {
    const merchant = await seedMerchant();
    const first = await open(merchant.apiKey, "sealed-one");
    expect(first.status).toBe(201);
    const rows = await (await dbOfAccount(merchant.account.id)).select().from(idempotencyKeys);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(first.body.data.nonce);
    expect(stored).not.toContain(first.body.data.session_id);
    // The replay opens it again, whole.
    expect((await open(merchant.apiKey, "sealed-one")).body.data).toEqual(first.body.data);
    // Copied onto another record of the same key, it does not open: bound to its record.
    const second = await open(merchant.apiKey, "sealed-two");
    expect(second.status).toBe(201);
    const [one] = rows.filter((r) => r.key === "sealed-one");
    const { eq, and } = await import("drizzle-orm");
    await (await dbOfAccount(merchant.account.id))
      .update(idempotencyKeys)
      .set({ responseBody: one!.responseBody })
      .where(and(eq(idempotencyKeys.keyId, merchant.keyId), eq(idempotencyKeys.key, "sealed-two")));
    expect((await open(merchant.apiKey, "sealed-two")).status).toBe(500);
  });
});
