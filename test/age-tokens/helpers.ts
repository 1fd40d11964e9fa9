// Shared by the age-token tests: token keys for a setting, and tokens fetched through the RFC client
// (rfc-client.ts) from the issuer under test, as the /verify page will.
import { insertSpentAgeToken, type SpentAgeToken } from "../../src/db/spent-age-tokens";
import type { Database } from "../../src/db/client";
import { issueTokens, type TokenKeys } from "../../src/domain/age-tokens";
import { ApiError } from "../../src/errors";
import devKeys from "../fixtures/dev-age-token-keys.json";
import { b64url, createTokenRequest, hex, unb64url } from "./rfc-client";

export const DEV_SETTING = devKeys.value;
export const devKey = (ageOver: number): string =>
  (JSON.parse(DEV_SETTING) as { age_over: number; current: string }[]).find((k) => k.age_over === ageOver)!.current;

/** The base64 DER inside a PEM the RFC vectors carry as hex. */
export const pemBody = (pemHex: string): string =>
  new TextDecoder()
    .decode(hex(pemHex))
    .replace(/-----[A-Z ]+-----/g, "")
    .replace(/\s+/g, "");

/** A fresh RSA-2048 key as the setting takes it (base64 PKCS#8): for rotation and unknown-key cases. */
export async function freshKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey(
    { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-384" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer);
  return btoa(String.fromCharCode(...pkcs8));
}

export const setting = (entries: { age_over: number; current: string; previous?: string }[]) => JSON.stringify(entries);

/** `count` tokens for `ageOver` under the current key the directory lists first for it. */
export async function fetchTokens(keys: TokenKeys, ageOver: number, challenge: Uint8Array<ArrayBuffer>, count = 1): Promise<string[]> {
  const tokenKey = keys.find((k) => k.ageOver === ageOver && k.role === "current")!.publicKey;
  const requests = await Promise.all(Array.from({ length: count }, () => createTokenRequest(challenge, tokenKey)));
  const responses = await issueTokens(
    keys,
    ageOver,
    requests.map((r) => b64url(r.tokenRequest)),
  );
  return Promise.all(requests.map(async (r, i) => b64url(await r.finalize(unb64url(responses[i]!)))));
}

/**
 * Spends a token as the session's object does (src/session/verification-session.ts): the same statement,
 * and a second spend refused as AGE_TOKEN_SPENT, which the route answers 409. For the store's own tests,
 * which need no session around the spend.
 */
export async function spendAgeToken(db: Database, spent: SpentAgeToken): Promise<void> {
  const outcome = await insertSpentAgeToken(db, spent);
  if (outcome === "spent") throw new ApiError("AGE_TOKEN_SPENT");
  if (outcome === "retired") throw new ApiError("AGE_TOKEN_INVALID");
}
