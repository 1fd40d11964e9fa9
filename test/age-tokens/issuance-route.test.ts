// The issuer through its routes (docs/api-contract.md §Age tokens): the directory at /.well-known, and POST /api/age-tokens
// for a verified adult of the threshold, with a fresh passkey assertion where the account has a
// passkey, counted per account per day in tokens; refusals for everyone else, and nothing recorded
// about which tokens were issued.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountCounters } from "../../src/db/schema";
import { AGE_TOKENS_PER_DAY_DEFAULT } from "../../src/domain/age-tokens";
import { ACCOUNT_LIMITS } from "../../src/domain/limits";
import { SoftwareAuthenticator } from "../helpers/authenticator";
import { call, expectError } from "../helpers/http";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { seedAccount, seedEndUser } from "../helpers/seed";
import { birthdayToday } from "../helpers/sessions";
import { b64url, hex, toHexString } from "./rfc-client";
import { askForTokens, DIRECTORY_PATH, directoryKey, request, stockTokens, tokenRequests } from "./service-client";
import { dbOfAccount } from "../helpers/shards";

// The id-RSASSA-PSS AlgorithmIdentifier with SHA-384 / MGF1-SHA-384 / salt 48 (RFC 9578 §6.5), written out.
const PSS_SHA384_ALGORITHM =
  "303d06092a864886f70d01010a3030a00d300b0609608648016503040202a11a301806092a864886f70d010108300b0609608648016503040202a203020130";

const requestsFor = async (ageOver: number, count: number) =>
  (await tokenRequests(await directoryKey(ageOver), count)).map((p) => b64url(p.tokenRequest));

describe("the issuer directory", () => {
  it("lists one token-type 2 key per threshold with its age_over, under the RFC's media type, cacheable", async () => {
    const res = await call("GET", DIRECTORY_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/private-token-issuer-directory");
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    const directory = JSON.parse(res.text) as {
      "issuer-request-uri": string;
      "token-keys": { "token-type": number; "token-key": string; age_over: number }[];
    };
    expect(directory["issuer-request-uri"]).toBe(`${env.APP_URL}/api/age-tokens`);
    expect(directory["token-keys"].map((k) => [k["token-type"], k.age_over])).toEqual([
      [2, 18],
      [2, 21],
    ]);
    for (const key of directory["token-keys"]) expect(toHexString(await directoryKey(key.age_over))).toContain(PSS_SHA384_ALGORITHM);
  });

  it("does not exist where no token keys are configured, and neither does issuance", async () => {
    const bare = { ...env, AGE_TOKEN_KEYS: undefined } as Env;
    expectError(await request("GET", DIRECTORY_PATH, {}, bare), 404, "NOT_FOUND");
    const adult = await seedEndUser(birthdayToday(30));
    const issuance = await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 1) }, bare);
    expectError(issuance, 404, "NOT_FOUND");
    expect(issuance.body.message).toBe("Route not found.");
  });
});

describe("issuance", () => {
  it("a verified adult gets 1 to 10 tokens whose signatures verify under the directory's key", async () => {
    const adult = await seedEndUser(birthdayToday(30));
    // stockTokens finalizes each response, which checks the RSASSA-PSS signature (rfc-client.ts).
    expect(await stockTokens(adult.token, 18, 10)).toHaveLength(10);
    expect(await stockTokens(adult.token, 21, 1)).toHaveLength(1);
  });

  it("needs a sign-in", async () => {
    const res = await call("POST", "/api/age-tokens", { body: { age_over: 18, token_requests: await requestsFor(18, 1) } });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("refuses an account without a verified identity (403 KYC_REQUIRED) and one under the threshold (403 AGE_TOKEN_NOT_ALLOWED)", async () => {
    const unverified = await seedAccount({ userType: "PERSONAL" });
    expectError(await askForTokens(unverified.token, { age_over: 18, token_requests: await requestsFor(18, 1) }), 403, "KYC_REQUIRED");
    const nineteen = await seedEndUser(birthdayToday(19));
    expectError(
      await askForTokens(nineteen.token, { age_over: 21, token_requests: await requestsFor(21, 1) }),
      403,
      "AGE_TOKEN_NOT_ALLOWED",
    );
    // The day before their 21st birthday they are still 20.
    const almost = await seedEndUser(birthdayToday(21, 1));
    expectError(await askForTokens(almost.token, { age_over: 21, token_requests: await requestsFor(21, 1) }), 403, "AGE_TOKEN_NOT_ALLOWED");
    expect(await stockTokens(nineteen.token, 18, 1)).toHaveLength(1);
  });

  it("needs a fresh assertion by one of the account's passkeys where it has one", async () => {
    const adult = await seedEndUser(birthdayToday(30));
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(adult, device);
    expectError(await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 1) }), 403, "PASSKEY_REQUIRED");
    const options = await call("POST", "/api/users/me/passkeys/confirmation-options", { token: adult.token });
    expect(options.status).toBe(200);
    const assertion = await device.assert(options.body.data);
    expect(await stockTokens(adult.token, 18, 2, { confirmation: assertion })).toHaveLength(2);
    // Single use: the same assertion again is refused.
    expectError(
      await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 1), confirmation: assertion }),
      400,
      "PASSKEY_INVALID",
    );
    // Another device's assertion over the account's challenge does not count.
    const stranger = await SoftwareAuthenticator.create();
    const again = await call("POST", "/api/users/me/passkeys/confirmation-options", { token: adult.token });
    expectError(
      await askForTokens(adult.token, {
        age_over: 18,
        token_requests: await requestsFor(18, 1),
        confirmation: await stranger.assert(again.body.data),
      }),
      400,
      "PASSKEY_INVALID",
    );
  });

  it("refuses malformed requests and thresholds not offered with 422, counting nothing", async () => {
    const adult = await seedEndUser(birthdayToday(30));
    const shard = await dbOfAccount(adult.id);
    const before = (await shard.select().from(accountCounters)).length;
    const [good] = await requestsFor(18, 1);
    const bad = [
      { age_over: 19, token_requests: [good] },
      { age_over: 18, token_requests: [] },
      { age_over: 18, token_requests: Array(11).fill(good) },
      { age_over: 18, token_requests: ["not*base64"] },
      { age_over: 18, token_requests: [b64url(hex("0001" + "00".repeat(257)))] },
      // A request for the 21 key asked as 18.
      { age_over: 18, token_requests: await requestsFor(21, 1) },
      { age_over: "18", token_requests: [good] },
    ];
    for (const body of bad) expectError(await askForTokens(adult.token, body), 422, "VALIDATION_FAILED");
    expect(await shard.select().from(accountCounters)).toHaveLength(before);
  });

  it("a threshold not offered is 422 before anything about the account, naming the thresholds offered", async () => {
    const unverified = await seedAccount({ userType: "PERSONAL" });
    const under = await seedEndUser(birthdayToday(17));
    const [good] = await requestsFor(18, 1);
    for (const account of [unverified, under]) {
      const res = await askForTokens(account.token, { age_over: 19, token_requests: [good] });
      expectError(res, 422, "VALIDATION_FAILED");
      expect(res.body.errors).toEqual([{ path: "age_over", message: "No age tokens for this threshold; offered: 18, 21." }]);
    }
    expectError(await askForTokens(unverified.token, { age_over: 18, token_requests: [good] }), 403, "KYC_REQUIRED");
  });

  it("counts tokens per account per day (AGE_TOKENS_PER_DAY): past it 429 with Retry-After to the end of the UTC day; another account is not affected", async () => {
    const limited = { ...env, AGE_TOKENS_PER_DAY: "12" } as Env;
    const adult = await seedEndUser(birthdayToday(30));
    const shard = await dbOfAccount(adult.id);
    const before = new Set((await shard.select().from(accountCounters)).map((row) => row.key));
    expect(await stockTokens(adult.token, 18, 10, {}, limited)).toHaveLength(10);
    const over = await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 3) }, limited);
    expectError(over, 429, "RATE_LIMITED");
    const retryAfter = Number(over.headers.get("retry-after"));
    const now = new Date();
    const endOfDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(Math.abs(retryAfter - (endOfDay - now.getTime()) / 1000)).toBeLessThan(5);
    // A refused call counts nothing: the two left are still there, then none.
    expect(await stockTokens(adult.token, 18, 2, {}, limited)).toHaveLength(2);
    expectError(await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 1) }, limited), 429, "RATE_LIMITED");
    // The whole count is one keyed row holding a number: no token, no request, no account id.
    const rows = (await shard.select().from(accountCounters)).filter((row) => !before.has(row.key));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.count).toBe(12);
    expect(JSON.stringify(rows)).not.toContain(adult.id);
    const other = await seedEndUser(birthdayToday(30));
    expect(await stockTokens(other.token, 18, 10, {}, limited)).toHaveLength(10);
  });

  it("concurrent calls cannot together pass the day's limit: of six calls for 5 tokens under a limit of 12, two are issued, the rest 429", async () => {
    const limited = { ...env, AGE_TOKENS_PER_DAY: "12" } as Env;
    const adult = await seedEndUser(birthdayToday(30));
    const calls = await Promise.all(
      Array.from({ length: 6 }, async () => askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 5) }, limited)),
    );
    expect(calls.map((res) => res.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    expect(calls.filter((res) => res.status === 200).flatMap((res) => res.body.data.token_responses as string[])).toHaveLength(10);
  });

  it("a SECRETS_KEY rotation does not give the day's tokens again: the count taken under the previous key still counts", async () => {
    const before = { ...env, AGE_TOKENS_PER_DAY: "12" } as Env;
    const rotated = {
      ...before,
      SECRETS_KEY: btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))),
      SECRETS_KEY_PREVIOUS: env.SECRETS_KEY,
    } as Env;
    const adult = await seedEndUser(birthdayToday(30));
    expect(await stockTokens(adult.token, 18, 10, {}, before)).toHaveLength(10);
    expectError(await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 5) }, rotated), 429, "RATE_LIMITED");
    expect(await stockTokens(adult.token, 18, 2, {}, rotated)).toHaveLength(2);
    expectError(await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 1) }, before), 429, "RATE_LIMITED");
  });

  it("the production limit is the contract's 30 tokens a day", () => {
    expect(ACCOUNT_LIMITS.ageTokensPerAccount[0].fallback).toBe(AGE_TOKENS_PER_DAY_DEFAULT);
    expect(AGE_TOKENS_PER_DAY_DEFAULT).toBe(30);
  });

  it("a call for more tokens than the whole day allows is refused", async () => {
    const limited = { ...env, AGE_TOKENS_PER_DAY: "3" } as Env;
    const adult = await seedEndUser(birthdayToday(30));
    const over = await askForTokens(adult.token, { age_over: 18, token_requests: await requestsFor(18, 4) }, limited);
    expectError(over, 429, "RATE_LIMITED");
    expect(over.body.message).toBe("Too many age tokens today: 3 more can be issued before midnight UTC.");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await stockTokens(adult.token, 18, 3, {}, limited)).toHaveLength(3);
  });

  it("an account with a passkey past its day's count is told of the count, not asked for its passkey again", async () => {
    const limited = { ...env, AGE_TOKENS_PER_DAY: "2" } as Env;
    const adult = await seedEndUser(birthdayToday(30));
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(adult, device);
    const confirmation = async () =>
      device.assert((await call("POST", "/api/users/me/passkeys/confirmation-options", { token: adult.token })).body.data);
    expect(await stockTokens(adult.token, 18, 2, { confirmation: await confirmation() }, limited)).toHaveLength(2);
    const over = await askForTokens(
      adult.token,
      { age_over: 18, token_requests: await requestsFor(18, 1), confirmation: await confirmation() },
      limited,
    );
    expectError(over, 429, "RATE_LIMITED");
    expect(over.body.message).toBe("Too many age tokens today: 0 more can be issued before midnight UTC.");
  });
});
