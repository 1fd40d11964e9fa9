// The issuer's token keys, one RSA-2048 key per age threshold offered, read from the AGE_TOKEN_KEYS
// setting (a Worker secret). Rotation: each threshold names its `current` key, which signs, and may
// name its `previous` one, which only verifies while tokens under it may still be spent; both are
// published in the directory. A key dropped from the setting is retired: its tokens are refused and
// its spent records pruned, so a retired key must never come back.
import { parseAgeTokenKeysSetting } from "../../config/age-token-keys-setting";
import { fromBase64, fromBase64Url, toHex } from "../../lib/encoding";
import { bytesToBigInt, type BlindSigningKey } from "./blind-rsa";
import { tokenKeyId, toRsassaPssSpki } from "./token-key-encoding";

export const AGE_TOKEN_KEYS_SETTING = "AGE_TOKEN_KEYS";

export type TokenKey = {
  ageOver: number;
  role: "current" | "previous";
  /** The RSASSA-PSS SPKI the directory lists (RFC 9578 §6.5). */
  publicKey: Uint8Array<ArrayBuffer>;
  tokenKeyId: Uint8Array<ArrayBuffer>;
  tokenKeyIdHex: string;
  verifyKey: CryptoKey;
  /** Current keys only: the previous key of a threshold verifies, it never signs again. */
  signing: BlindSigningKey | null;
};

/** Every published key: by threshold, lowest first, each threshold's current key before its previous one. */
export type TokenKeys = readonly TokenKey[];

/** A setting that cannot be used; the message names the setting and the problem, never a key. */
export class TokenKeysMisconfigured extends Error {
  constructor(problem: string) {
    super(`${AGE_TOKEN_KEYS_SETTING}: ${problem}`);
  }
}

async function importTokenKey(ageOver: number, role: TokenKey["role"], base64Pkcs8: string): Promise<TokenKey> {
  const where = `age_over ${ageOver} ${role}`;
  let pkcs8: Uint8Array<ArrayBuffer>;
  let jwk: JsonWebKey;
  try {
    pkcs8 = fromBase64(base64Pkcs8.replace(/\s+/g, ""));
    const extractable = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSA-PSS", hash: "SHA-384" }, true, ["sign"]);
    jwk = (await crypto.subtle.exportKey("jwk", extractable)) as JsonWebKey;
  } catch {
    throw new TokenKeysMisconfigured(`${where} is not a base64 PKCS#8 RSA private key`);
  }
  const modulus = bytesToBigInt(fromBase64Url(jwk.n!));
  if (modulus.toString(2).length !== 2048 || jwk.e !== "AQAB")
    throw new TokenKeysMisconfigured(`${where} must be RSA-2048 with public exponent 65537 (RFC 9578 token type 2)`);
  const verifyKey = await crypto.subtle.importKey(
    "jwk",
    { kty: "RSA", n: jwk.n, e: jwk.e, ext: true },
    { name: "RSA-PSS", hash: "SHA-384" },
    true,
    ["verify"],
  );
  const publicKey = toRsassaPssSpki(new Uint8Array((await crypto.subtle.exportKey("spki", verifyKey)) as ArrayBuffer));
  const id = await tokenKeyId(publicKey);
  // workerd's non-standard RSA-RAW: the raw RSASP1 a blind signature needs (blind-rsa.ts).
  const signing =
    role === "current"
      ? {
          signKey: await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSA-RAW", hash: "SHA-384" }, false, ["sign"]),
          modulus,
          publicExponent: 65537n,
        }
      : null;
  return { ageOver, role, publicKey, tokenKeyId: id, tokenKeyIdHex: toHex(id), verifyKey, signing };
}

/**
 * The threshold whose current and previous keys share a truncated key id, or null. A TokenRequest names
 * its key by the key id's last byte alone (RFC 9578 §6.1): were the two to share it, a request made for
 * the retired key would be signed by the current one. One new key in 256 does: generate another.
 */
export function truncatedIdClash(keys: readonly Pick<TokenKey, "ageOver" | "role" | "tokenKeyId">[]): number | null {
  const lastByte = (key: Pick<TokenKey, "tokenKeyId">) => key.tokenKeyId[key.tokenKeyId.length - 1];
  for (const previous of keys.filter((k) => k.role === "previous")) {
    const current = keys.find((k) => k.role === "current" && k.ageOver === previous.ageOver);
    if (current && lastByte(current) === lastByte(previous)) return previous.ageOver;
  }
  return null;
}

export async function loadTokenKeys(setting: string): Promise<TokenKeys> {
  const parsed = parseAgeTokenKeysSetting(setting);
  if ("problem" in parsed) throw new TokenKeysMisconfigured(parsed.problem);
  const { entries } = parsed;
  const keys = await Promise.all(
    entries.flatMap((entry) => [
      importTokenKey(entry.age_over, "current", entry.current),
      ...(entry.previous ? [importTokenKey(entry.age_over, "previous", entry.previous)] : []),
    ]),
  );
  // One key, one threshold: a token proves its threshold only through the key that signed it.
  if (new Set(keys.map((k) => k.tokenKeyIdHex)).size !== keys.length) throw new TokenKeysMisconfigured("uses one key twice");
  const clash = truncatedIdClash(keys);
  if (clash !== null)
    throw new TokenKeysMisconfigured(
      `age_over ${clash}: the current and previous keys share a truncated key id; generate another current key`,
    );
  return keys;
}

/** The setting parsed once per isolate: importing keys costs milliseconds, the setting never changes while it lives. */
let cached: { setting: string; keys: Promise<TokenKeys> } | null = null;
export function tokenKeysFromSetting(setting: string): Promise<TokenKeys> {
  if (cached?.setting !== setting) {
    const keys = loadTokenKeys(setting);
    cached = { setting, keys };
    // A setting that failed is not remembered: the next request reads it again (and fails closed again).
    keys.catch(() => {
      if (cached?.keys === keys) cached = null;
    });
  }
  return cached.keys;
}

export const currentKeyFor = (keys: TokenKeys, ageOver: number): TokenKey | undefined =>
  keys.find((k) => k.ageOver === ageOver && k.role === "current");

export const publishedKeyWithId = (keys: TokenKeys, tokenKeyIdHex: string): TokenKey | undefined =>
  keys.find((k) => k.tokenKeyIdHex === tokenKeyIdHex);

/** The ids the spent-token records may keep (src/maintenance/prune-spent-age-tokens.ts). */
export const publishedKeyIds = (keys: TokenKeys): string[] => keys.map((k) => k.tokenKeyIdHex);

export const thresholdsOffered = (keys: TokenKeys): number[] => [...new Set(keys.map((k) => k.ageOver))];
