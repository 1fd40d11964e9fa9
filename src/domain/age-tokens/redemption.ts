// Redemption (RFC 9578 §6.4, RFC 9577 §2.2): checks that a Token was issued by one of the published
// keys for this service's own challenge, and says which threshold it proves and what its spent record
// is. Spending it once is the session object's (src/db/spent-age-tokens.ts), after everything else it checks.
import { ApiError } from "../../errors";
import { fromBase64Url, toHex } from "../../lib/encoding";
import { verifyPss } from "./blind-rsa";
import { publishedKeyWithId, type TokenKeys } from "./token-keys";
import { parseToken } from "./wire-format";

import type { SpentAgeToken } from "../../db/spent-age-tokens";

export type { SpentAgeToken };

export type VerifiedAgeToken = { ageOver: number; spent: SpentAgeToken };

export type RedemptionContext = { keys: TokenKeys; expectedChallenge: Uint8Array<ArrayBuffer>; ageRequired: number };

const invalid = () => new ApiError("AGE_TOKEN_INVALID");

/**
 * Throws 422 AGE_TOKEN_INVALID for anything that is not a token this service issued for its own
 * challenge under a key it still publishes, and 422 AGE_TOKEN_INSUFFICIENT for a valid token whose
 * threshold is under `ageRequired`. The token's bytes are never logged or stored.
 */
export async function verifyAgeToken(
  token: string,
  { keys, expectedChallenge, ageRequired }: RedemptionContext,
): Promise<VerifiedAgeToken> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64Url(token);
  } catch {
    throw invalid();
  }
  const parsed = parseToken(bytes);
  if (!parsed) throw invalid();
  const key = publishedKeyWithId(keys, toHex(parsed.tokenKeyId));
  if (!key) throw invalid();
  const expectedDigest = new Uint8Array(await crypto.subtle.digest("SHA-256", expectedChallenge));
  if (!crypto.subtle.timingSafeEqual(parsed.challengeDigest, expectedDigest)) throw invalid();
  if (!(await verifyPss(key.verifyKey, parsed.authenticatorInput, parsed.authenticator))) throw invalid();
  if (key.ageOver < ageRequired) throw new ApiError("AGE_TOKEN_INSUFFICIENT");
  const nonceHash = toHex(await crypto.subtle.digest("SHA-256", parsed.nonce));
  return { ageOver: key.ageOver, spent: { nonceHash, tokenKeyId: key.tokenKeyIdHex } };
}
