// Signing-secret rotation with a grace period, through the API and the real queue consumer: during the
// grace every callback carries `v1,<new> v1,<old>` and the reference standardwebhooks library verifies
// with either secret; after it only the new one verifies.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiKeys } from "../../src/db/schema";
import { previousSecretRowId } from "../../src/callbacks/signing-secret";
import { rotateSigningSecret } from "../../src/domain/merchant-callbacks/secret-rotation";
import { openSecret } from "../../src/lib/sealed-secret";
import { toBase64 } from "../../src/lib/encoding";
import { reencryptSigningSecrets } from "../../src/maintenance/reencrypt-secrets";
import { CALLBACK_URL, eventState, runCallbacks, seedResolvedSession } from "../helpers/callbacks";
import { call, expectError } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { serviceContext } from "../../src/service";
import { dbHolding, dbOfAccount } from "../helpers/shards";
import { shardBindingName } from "../../src/config/shards-setting";
import { rowWhere } from "../helpers/rows";
import { aroundD1 } from "../helpers/around-d1";

afterEach(() => vi.restoreAllMocks());

const rotate = (token: string, keyId: string, body: unknown = {}) =>
  call("POST", `/api/keys/${keyId}/rotate-signing-secret`, { token, body });

/** Delivers one event of `merchant` through the real consumer and returns what the receiver got. */
async function deliverOne(merchant: Awaited<ReturnType<typeof seedMerchant>>) {
  const message = await seedResolvedSession(merchant);
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
  await runCallbacks([message]);
  expect(await eventState(message.webhookId)).toBe("delivered");
  const [, init] = spy.mock.calls.find(([input]) => String(input) === CALLBACK_URL)!;
  spy.mockRestore();
  return { body: String(init!.body), headers: Object.fromEntries(new Headers(init!.headers)) };
}

const verifies = (secret: string, delivered: { body: string; headers: Record<string, string> }) => {
  try {
    new Webhook(secret).verify(delivered.body, delivered.headers);
    return true;
  } catch {
    return false;
  }
};

const rowOf = async (keyId: string) =>
  (await rowWhere(await dbHolding("SELECT 1 FROM api_keys WHERE id = ?", keyId), apiKeys, eq(apiKeys.id, keyId)))!;

describe("rotating a key's signing secret", () => {
  it("returns a new whsec_ secret once; during the grace both secrets verify, newest signature first; after it only the new one", async () => {
    const merchant = await seedMerchant();
    const rotated = await rotate(merchant.account.token, merchant.keyId, { graceHours: 48 });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.data.signingSecret;
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(fresh).not.toBe(merchant.signingSecret);
    const graceEnd = rotated.body.data.key.signingSecret.previousExpiresAt;
    expect(Date.parse(graceEnd) - Date.parse(rotated.body.data.key.signingSecret.rotatedAt)).toBe(48 * 3600 * 1000);

    // The listing shows the states, never a secret.
    const listed = await call("GET", "/api/keys", { token: merchant.account.token });
    expect(listed.body.data.keys[0].signingSecret).toEqual({
      rotatedAt: rotated.body.data.key.signingSecret.rotatedAt,
      previousExpiresAt: graceEnd,
    });
    expect(listed.text).not.toContain(fresh);
    expect(listed.text).not.toContain(merchant.signingSecret);

    // Both stored encrypted, each bound to its own slot.
    const row = await rowOf(merchant.keyId);
    expect(row.signingSecretEnc).not.toContain(fresh.slice(6, 20));
    expect(await openSecret(row.previousSigningSecretEnc!, [env.SECRETS_KEY!], previousSecretRowId(merchant.keyId))).toBe(
      merchant.signingSecret,
    );
    await expect(openSecret(row.previousSigningSecretEnc!, [env.SECRETS_KEY!], merchant.keyId)).rejects.toThrow();

    const inGrace = await deliverOne(merchant);
    const signatures = inGrace.headers["webhook-signature"]!.split(" ");
    expect(signatures).toHaveLength(2);
    expect(verifies(fresh, inGrace)).toBe(true);
    expect(verifies(merchant.signingSecret, inGrace)).toBe(true);
    // Newest first: the first signature alone is the new secret's.
    expect(verifies(fresh, { ...inGrace, headers: { ...inGrace.headers, "webhook-signature": signatures[0]! } })).toBe(true);
    expect(verifies(merchant.signingSecret, { ...inGrace, headers: { ...inGrace.headers, "webhook-signature": signatures[0]! } })).toBe(
      false,
    );

    // The grace ends: the next callback carries one signature, the new secret's.
    await (await dbOfAccount(merchant.account.id))
      .update(apiKeys)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(apiKeys.id, merchant.keyId));
    const after = await deliverOne(merchant);
    expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(verifies(fresh, after)).toBe(true);
    expect(verifies(merchant.signingSecret, after)).toBe(false);
    const listedAfter = await call("GET", "/api/keys", { token: merchant.account.token });
    expect(listedAfter.body.data.keys[0].signingSecret.previousExpiresAt).toBeNull();
  });

  it("a second rotation inside the window ends the oldest secret; graceHours 0 ends the old one at once", async () => {
    const merchant = await seedMerchant();
    const second: string = (await rotate(merchant.account.token, merchant.keyId)).body.data.signingSecret;
    const third: string = (await rotate(merchant.account.token, merchant.keyId)).body.data.signingSecret;
    const delivered = await deliverOne(merchant);
    expect(verifies(third, delivered)).toBe(true);
    expect(verifies(second, delivered)).toBe(true);
    expect(verifies(merchant.signingSecret, delivered)).toBe(false);

    const fourth = await rotate(merchant.account.token, merchant.keyId, { graceHours: 0 });
    expect(fourth.body.data.key.signingSecret.previousExpiresAt).toBeNull();
    const immediate = await deliverOne(merchant);
    expect(verifies(fourth.body.data.signingSecret, immediate)).toBe(true);
    expect(verifies(third, immediate)).toBe(false);
    expect((await rowOf(merchant.keyId)).previousSigningSecretEnc).toBeNull();
  });

  it("without graceHours the previous secret keeps signing for the default 24 hours", async () => {
    const merchant = await seedMerchant();
    const rotated = await rotate(merchant.account.token, merchant.keyId);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const { rotatedAt, previousExpiresAt } = rotated.body.data.key.signingSecret;
    expect(Date.parse(previousExpiresAt) - Date.parse(rotatedAt)).toBe(24 * 3600 * 1000);
    const delivered = await deliverOne(merchant);
    expect(verifies(merchant.signingSecret, delivered)).toBe(true);
    expect(verifies(rotated.body.data.signingSecret, delivered)).toBe(true);
  });

  it("a rotation that lost a race to another is 409 ROTATION_CONFLICT and changes nothing: the winner's secret signs", async () => {
    const merchant = await seedMerchant();
    let winner: string | undefined;
    // Between this rotation's read of the key and its write, another request rotates the same key: the
    // first read of api_keys through this context's database answers only once the other rotation is done.
    // (A context of its own, so the other request, through the API, reads the key unhindered.)
    const rotateMeanwhile = async () => {
      const other = await rotate(merchant.account.token, merchant.keyId, { graceHours: 0 });
      expect(other.status).toBe(200);
      winner = other.body.data.signingSecret;
    };
    const shard = shardBindingName(merchant.shard);
    const d1 = afterFirstRead((env as unknown as Record<string, D1Database>)[shard]!, /^select .* from "api_keys"/, rotateMeanwhile);
    const ctx = serviceContext({ ...env, [shard]: d1 } as Env).onShard(merchant.shard);
    const lost = rotateSigningSecret(ctx, merchant.account.id, merchant.keyId, 0);
    await expect(lost).rejects.toMatchObject({ code: "ROTATION_CONFLICT" });
    expect(winner).toMatch(/^whsec_/);
    const delivered = await deliverOne(merchant);
    expect(verifies(winner!, delivered)).toBe(true);
    expect(verifies(merchant.signingSecret, delivered)).toBe(false);
  });

  it("another account's key is 404, a bad grace is 422, and neither changes the key", async () => {
    const merchant = await seedMerchant();
    // On the merchant's shard, so that a read which forgot the account would meet the merchant's rows.
    const other = await seedMerchant("other", "live", { shard: merchant.shard });
    const before = await rowOf(merchant.keyId);
    expectError(await rotate(other.account.token, merchant.keyId), 404, "NOT_FOUND");
    expectError(await rotate(merchant.account.token, "key_nonexistentnonexistent1"), 404, "NOT_FOUND");
    for (const graceHours of [-1, 169, 1.5, "24"]) {
      expectError(await rotate(merchant.account.token, merchant.keyId, { graceHours }), 422, "VALIDATION_FAILED");
    }
    expect(await rowOf(merchant.keyId)).toEqual(before);
  });

  it("the current and previous ciphertexts cannot be swapped: the consumer refuses to sign and sends nothing", async () => {
    const merchant = await seedMerchant();
    await rotate(merchant.account.token, merchant.keyId);
    const row = await rowOf(merchant.keyId);
    await (await dbOfAccount(merchant.account.id))
      .update(apiKeys)
      .set({ signingSecretEnc: row.previousSigningSecretEnc!, previousSigningSecretEnc: row.signingSecretEnc })
      .where(eq(apiKeys.id, merchant.keyId));
    const message = await seedResolvedSession(merchant);
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { result } = await runCallbacks([message]);
    expect(spy.mock.calls.filter(([input]) => String(input) === CALLBACK_URL)).toHaveLength(0);
    expect(result.retryMessages).toHaveLength(1);
    expect(await eventState(message.webhookId)).toBe("pending");
  });

  it("re-encryption under a new SECRETS_KEY covers the previous secret, bound to its slot, and signing goes on with both", async () => {
    const merchant = await seedMerchant();
    const fresh: string = (await rotate(merchant.account.token, merchant.keyId)).body.data.signingSecret;
    const NEW_KEY = toBase64(crypto.getRandomValues(new Uint8Array(32)));
    const rotatedEnv = { ...env, SECRETS_KEY: NEW_KEY, SECRETS_KEY_PREVIOUS: env.SECRETS_KEY } as Env;
    vi.spyOn(console, "log").mockImplementation(() => {});
    // Other tests' rows share the database (some deliberately unopenable): run until this row is done.
    const newTag = (await import("../../src/lib/key-id")).keyId(NEW_KEY);
    const done = async () => {
      const r = await rowOf(merchant.keyId);
      return r.signingSecretEnc.startsWith(`${await newTag}.`) && r.previousSigningSecretEnc!.startsWith(`${await newTag}.`);
    };
    for (let run = 0; run < 50 && !(await done()); run++) await reencryptSigningSecrets(serviceContext(rotatedEnv).onShard(merchant.shard));
    expect(await done()).toBe(true);
    const row = await rowOf(merchant.keyId);
    expect(await openSecret(row.signingSecretEnc, [NEW_KEY], merchant.keyId)).toBe(fresh);
    expect(await openSecret(row.previousSigningSecretEnc!, [NEW_KEY], previousSecretRowId(merchant.keyId))).toBe(merchant.signingSecret);
    await expect(openSecret(row.previousSigningSecretEnc!, [NEW_KEY], merchant.keyId)).rejects.toThrow();
  });
});

/** `d1`, but the first statement whose SQL matches runs `meanwhile` after it is answered and before its caller sees the answer. */
function afterFirstRead(d1: D1Database, sql: RegExp, meanwhile: () => Promise<void>): D1Database {
  let armed = true;
  return aroundD1(d1, async (call, text) => {
    const answer = await call();
    if (armed && text !== undefined && sql.test(text)) {
      armed = false;
      await meanwhile();
    }
    return answer;
  });
}
