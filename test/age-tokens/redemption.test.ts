// Redemption: a token the issuer signed for this service's challenge verifies, and says its threshold
// and the record that spends it; anything else is refused, and a token's threshold must meet the
// session's age. Spending the record once is the store's (spent-tokens.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { ageTokenChallenge, loadTokenKeys, verifyAgeToken, type TokenKeys } from "../../src/domain/age-tokens";
import { DEV_SETTING, fetchTokens, freshKey, setting } from "./helpers";
import { b64url, toHexString, tokenChallenge, unb64url } from "./rfc-client";

const APP_URL = "https://age.example.com";
const challenge = ageTokenChallenge(APP_URL);
let keys: TokenKeys;
beforeAll(async () => {
  keys = await loadTokenKeys(DEV_SETTING);
});

const verify = (token: string, ageRequired = 18) => verifyAgeToken(token, { keys, expectedChallenge: challenge, ageRequired });
const invalid = { code: "AGE_TOKEN_INVALID", status: 422 };

describe("happy path", () => {
  it("a valid token verifies, and its spent record is its nonce's SHA-256 and its key's id, the same each time", async () => {
    const [token] = await fetchTokens(keys, 18, challenge);
    const first = await verify(token!);
    const nonce = unb64url(token!).slice(2, 34);
    expect(first).toEqual({
      ageOver: 18,
      spent: { nonceHash: toHexString(await crypto.subtle.digest("SHA-256", nonce)), tokenKeyId: keys[0]!.tokenKeyIdHex },
    });
    expect(await verify(token!)).toEqual(first);
  });

  it("tokens of one batch have spent records of their own", async () => {
    const tokens = await fetchTokens(keys, 18, challenge, 3);
    const spent = await Promise.all(tokens.map(async (t) => (await verify(t)).spent));
    expect(new Set(spent.map((s) => s.nonceHash)).size).toBe(3);
  });

  it("a token for 21 approves a session that asks for 18, and says 21", async () => {
    const [token] = await fetchTokens(keys, 21, challenge);
    expect((await verify(token!, 18)).ageOver).toBe(21);
  });
});

describe("refusals", () => {
  it("a token for 18 against a session for 21 is 422 AGE_TOKEN_INSUFFICIENT", async () => {
    const [token] = await fetchTokens(keys, 18, challenge);
    await expect(verify(token!, 21)).rejects.toMatchObject({ code: "AGE_TOKEN_INSUFFICIENT", status: 422 });
  });

  it("a token under a key this service never published is 422 AGE_TOKEN_INVALID", async () => {
    const otherKeys = await loadTokenKeys(setting([{ age_over: 18, current: await freshKey() }]));
    const [token] = await fetchTokens(otherKeys, 18, challenge);
    await expect(verify(token!)).rejects.toMatchObject(invalid);
  });

  it("a token whose key id names our key but whose signature is another key's is 422 AGE_TOKEN_INVALID", async () => {
    const otherKeys = await loadTokenKeys(setting([{ age_over: 18, current: await freshKey() }]));
    const forged = unb64url((await fetchTokens(otherKeys, 18, challenge))[0]!);
    forged.set(keys[0]!.tokenKeyId, 66);
    await expect(verify(b64url(forged))).rejects.toMatchObject(invalid);
  });

  it.each([
    ["token type", 1],
    ["nonce", 2],
    ["challenge digest", 34],
    ["token key id", 66],
    ["authenticator, first byte", 98],
    ["authenticator, last byte", 353],
  ])("a token with one changed byte in its %s is 422 AGE_TOKEN_INVALID", async (_, at) => {
    const [token] = await fetchTokens(keys, 18, challenge);
    const bytes = unb64url(token!);
    await expect(verify(b64url(bytes))).resolves.toMatchObject({ ageOver: 18 });
    bytes[at]! ^= 0x01;
    await expect(verify(b64url(bytes))).rejects.toMatchObject(invalid);
  });

  it("a token of another type (VOPRF, type 1, its own size) is 422 AGE_TOKEN_INVALID", async () => {
    const voprf = new Uint8Array(2 + 32 + 32 + 32 + 48);
    voprf[1] = 1;
    await expect(verify(b64url(voprf))).rejects.toMatchObject(invalid);
  });

  it("a token signed by our key for another issuer's challenge is 422 AGE_TOKEN_INVALID", async () => {
    // The issuer blind-signs without seeing the challenge: only redemption can hold a token to ours.
    const theirs = tokenChallenge("issuer.example", new Uint8Array(0), "origin.example");
    const [token] = await fetchTokens(keys, 18, theirs);
    await expect(verifyAgeToken(token!, { keys, expectedChallenge: theirs, ageRequired: 18 })).resolves.toMatchObject({ ageOver: 18 });
    await expect(verify(token!)).rejects.toMatchObject(invalid);
  });

  it("a token for our issuer but with a redemption context is 422 AGE_TOKEN_INVALID", async () => {
    const withContext = tokenChallenge("age.example.com", new Uint8Array(32).fill(7), "age.example.com");
    const [token] = await fetchTokens(keys, 18, withContext);
    await expect(verify(token!)).rejects.toMatchObject(invalid);
  });

  it.each([
    ["not base64url", "!!not a token!!"],
    ["empty", ""],
    ["cut short", "AAI"],
  ])("a token that is %s is 422 AGE_TOKEN_INVALID", async (_, token) => {
    await expect(verify(token)).rejects.toMatchObject(invalid);
  });
});
