// Rotation: a threshold's current key signs and verifies, its previous key only verifies (its tokens
// may still be spent), both are in the directory; a key dropped from the setting is retired.
import { beforeAll, describe, expect, it } from "vitest";
import {
  ageTokenChallenge,
  issueTokens,
  issuerDirectory,
  loadTokenKeys,
  verifyAgeToken,
  type TokenKeys,
} from "../../src/domain/age-tokens";
import { truncatedIdClash } from "../../src/domain/age-tokens/token-keys";
import { fetchTokens, freshKey, setting } from "./helpers";
import { b64url, createTokenRequest, rsaPublicKeyOf, unb64url } from "./rfc-client";

const APP_URL = "https://age.example.com";
const challenge = ageTokenChallenge(APP_URL);
let oldKey: string;
let newKey: string;
let before: TokenKeys;
let during: TokenKeys;
let after: TokenKeys;

/** The modulus of a base64 PKCS#8 key as Web Crypto reads it: the test's own view of which key is which. */
async function modulusOf(pkcs8: string): Promise<bigint> {
  const key = await crypto.subtle.importKey(
    "pkcs8",
    Uint8Array.from(atob(pkcs8), (c) => c.charCodeAt(0)),
    { name: "RSA-PSS", hash: "SHA-384" },
    true,
    ["sign"],
  );
  const n = ((await crypto.subtle.exportKey("jwk", key)) as JsonWebKey).n!;
  return BigInt(`0x${Array.from(unb64url(n), (b) => b.toString(16).padStart(2, "0")).join("")}`);
}

/** The last byte of a key's id: what a TokenRequest names it by (RFC 9578 §6.1). */
const truncatedId = async (pkcs8: string) => (await loadTokenKeys(setting([{ age_over: 18, current: pkcs8 }])))[0]!.tokenKeyId.at(-1);

beforeAll(async () => {
  oldKey = await freshKey();
  // As an operator must: a new key whose truncated id differs from the one it replaces (1 in 256 does not).
  do newKey = await freshKey();
  while ((await truncatedId(newKey)) === (await truncatedId(oldKey)));
  before = await loadTokenKeys(setting([{ age_over: 18, current: oldKey }]));
  during = await loadTokenKeys(setting([{ age_over: 18, current: newKey, previous: oldKey }]));
  after = await loadTokenKeys(setting([{ age_over: 18, current: newKey }]));
});

const verify = (keys: TokenKeys, token: string) => verifyAgeToken(token, { keys, expectedChallenge: challenge, ageRequired: 18 });

describe("rotation", () => {
  it("the directory lists the current key, then the previous one, each for its threshold", async () => {
    const directory = issuerDirectory(during, APP_URL);
    expect(directory["issuer-request-uri"]).toBe("https://age.example.com/api/age-tokens");
    expect(directory["token-keys"].map((k) => [k["token-type"], k.age_over])).toEqual([
      [2, 18],
      [2, 18],
    ]);
    const moduli = directory["token-keys"].map((k) => rsaPublicKeyOf(unb64url(k["token-key"].replace(/=+$/, ""))).n);
    expect(moduli).toEqual([await modulusOf(newKey), await modulusOf(oldKey)]);
  });

  it("a token under the previous key, fetched before the rotation, still verifies during it", async () => {
    const [token] = await fetchTokens(before, 18, challenge);
    await expect(verify(during, token!)).resolves.toMatchObject({ ageOver: 18 });
  });

  it("a token under the current key verifies", async () => {
    const [token] = await fetchTokens(during, 18, challenge);
    await expect(verify(during, token!)).resolves.toMatchObject({ ageOver: 18 });
  });

  it("refuses a current and previous key of one threshold that share a truncated key id", () => {
    const id = (...bytes: number[]) => Uint8Array.from(bytes);
    const keys = [
      { ageOver: 18, role: "current" as const, tokenKeyId: id(1, 2, 0x7f) },
      { ageOver: 18, role: "previous" as const, tokenKeyId: id(9, 9, 0x7f) },
      { ageOver: 21, role: "current" as const, tokenKeyId: id(3, 0x10) },
    ];
    expect(truncatedIdClash(keys)).toBe(18);
    // Another threshold's key may share it: a request names its threshold as well.
    expect(truncatedIdClash([keys[0]!, { ...keys[1]!, tokenKeyId: id(9, 9, 0x80) }, { ...keys[2]!, tokenKeyId: id(3, 0x7f) }])).toBeNull();
    // A previous key is set beside its own threshold's current key only, wherever the others stand.
    const lower = { ageOver: 16, role: "current" as const, tokenKeyId: id(5, 0x80) };
    expect(truncatedIdClash([lower, keys[0]!, { ...keys[1]!, tokenKeyId: id(9, 9, 0x80) }])).toBeNull();
    expect(truncatedIdClash([{ ...keys[1]!, tokenKeyId: id(9, 0x80) }, lower, keys[0]!])).toBeNull();
  });

  it("the current key is found by its role, not by its place in the list", async () => {
    const current = during.find((k) => k.role === "current")!;
    const { tokenRequest } = await createTokenRequest(challenge, current.publicKey);
    await expect(issueTokens([...during].reverse(), 18, [b64url(tokenRequest)])).resolves.toHaveLength(1);
  });

  it("the previous key signs nothing new: a request for it is 422", async () => {
    const previous = during.find((k) => k.role === "previous")!;
    const { tokenRequest } = await createTokenRequest(challenge, previous.publicKey);
    await expect(issueTokens(during, 18, [b64url(tokenRequest)])).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [expect.objectContaining({ path: "token_requests.0" })],
    });
  });

  it("once the previous key is dropped (retired), its tokens are 422 AGE_TOKEN_INVALID and it leaves the directory", async () => {
    const [token] = await fetchTokens(before, 18, challenge);
    await expect(verify(during, token!)).resolves.toMatchObject({ ageOver: 18 });
    await expect(verify(after, token!)).rejects.toMatchObject({ code: "AGE_TOKEN_INVALID", status: 422 });
    expect(issuerDirectory(after, APP_URL)["token-keys"]).toHaveLength(1);
  });
});
