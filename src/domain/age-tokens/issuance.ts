// Issuance (RFC 9578 §6.2-6.3): blind-signs the TokenRequests of one threshold with its current key.
// Who may ask (a verified account of that age, its passkey, its daily count) is decided before this;
// nothing here sees or records the account, and a blinded message cannot be linked to the token it
// becomes (RFC 9474 §7.2), so issuance and redemption cannot be joined by anything stored.
import { ApiError, type FieldError } from "../../errors";
import { fromBase64Url, toBase64Url } from "../../lib/encoding";
import { blindSign, BlindSignRefused, inSigningRange, type BlindSigningKey } from "./blind-rsa";
import { currentKeyFor, thresholdsOffered, type TokenKeys } from "./token-keys";
import { parseTokenRequest, type TokenRequest } from "./wire-format";

/** docs/api-contract.md §Age tokens: 1 to 10 TokenRequests a call. */
export const MAX_TOKEN_REQUESTS = 10;

function decodeRequest(encoded: string): TokenRequest {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64Url(encoded);
  } catch {
    throw new Error("not base64url");
  }
  return parseTokenRequest(bytes);
}

/** TokenRequests checked and ready to sign: the threshold's signing key and each blinded message. */
export type CheckedRequests = { signing: BlindSigningKey; blindedMessages: Uint8Array<ArrayBuffer>[] };

/**
 * Checks base64url TokenRequests without signing anything: refuses the whole call (422
 * VALIDATION_FAILED, one item per problem) when any request is malformed, of another type, for another
 * key, or out of the key's range, or the threshold is not offered. Issuance counts between this and
 * signRequests, so a refused request never costs a private-key operation.
 */
export function checkTokenRequests(keys: TokenKeys, ageOver: number, tokenRequests: readonly string[]): CheckedRequests {
  const key = currentKeyFor(keys, ageOver);
  if (!key?.signing) {
    throw new ApiError("VALIDATION_FAILED", {
      errors: [{ path: "age_over", message: `No token key for this threshold; offered: ${thresholdsOffered(keys).join(", ")}.` }],
    });
  }
  if (tokenRequests.length < 1 || tokenRequests.length > MAX_TOKEN_REQUESTS) {
    throw new ApiError("VALIDATION_FAILED", {
      errors: [{ path: "token_requests", message: `Send 1 to ${MAX_TOKEN_REQUESTS} TokenRequests.` }],
    });
  }
  const signing = key.signing;
  const errors: FieldError[] = [];
  const blindedMessages = tokenRequests.map((encoded, index) => {
    try {
      const request = decodeRequest(encoded);
      if (request.truncatedTokenKeyId !== key.tokenKeyId[key.tokenKeyId.length - 1])
        throw new Error("truncated_token_key_id is not this threshold's current key; fetch the issuer directory again");
      if (!inSigningRange(signing, request.blindedMsg)) throw new Error("blinded_msg is not below the key's modulus");
      return request.blindedMsg;
    } catch (error) {
      errors.push({ path: `token_requests.${index}`, message: `${(error as Error).message}.` });
      return new Uint8Array(0);
    }
  });
  if (errors.length > 0) throw new ApiError("VALIDATION_FAILED", { errors });
  return { signing, blindedMessages };
}

/** The blind signatures (RFC 9474 §4.3) of checked requests, base64url TokenResponses in the same order. */
export async function signRequests(checked: CheckedRequests): Promise<string[]> {
  const signatures = await Promise.all(
    checked.blindedMessages.map((message, index) =>
      blindSign(checked.signing, message).catch((error: unknown) => {
        if (error instanceof BlindSignRefused)
          throw new ApiError("VALIDATION_FAILED", {
            errors: [{ path: `token_requests.${index}`, message: "blinded_msg is not below the key's modulus." }],
          });
        throw error;
      }),
    ),
  );
  return signatures.map((signature) => toBase64Url(signature));
}

/** Checks, then signs: for callers with nothing to count in between. */
export const issueTokens = async (keys: TokenKeys, ageOver: number, tokenRequests: readonly string[]): Promise<string[]> =>
  signRequests(checkTokenRequests(keys, ageOver, tokenRequests));
