// The issuer directory at /.well-known/private-token-issuer-directory (RFC 9578 §4, docs/api-contract.md §Age tokens):
// where to ask for tokens and every published token key, each with the threshold it vouches for.
import { toBase64UrlPadded } from "../../lib/encoding";
import type { TokenKeys } from "./token-keys";
import { TOKEN_TYPE_BLIND_RSA } from "./wire-format";

export const ISSUER_DIRECTORY_PATH = "/.well-known/private-token-issuer-directory";
export const ISSUER_DIRECTORY_MEDIA_TYPE = "application/private-token-issuer-directory";
/** RFC 9578 §4 asks for HTTP caching; an hour keeps a rotation visible to clients within one. */
export const ISSUER_DIRECTORY_CACHE_CONTROL = "public, max-age=3600";
export const ISSUANCE_PATH = "/api/age-tokens";

export type IssuerDirectory = {
  "issuer-request-uri": string;
  "token-keys": { "token-type": number; "token-key": string; age_over: number }[];
};

/** Keys in preference order (RFC 9578 §4): per threshold, the current key before the previous one. */
export const issuerDirectory = (keys: TokenKeys, appUrl: string): IssuerDirectory => ({
  "issuer-request-uri": new URL(ISSUANCE_PATH, appUrl).href,
  "token-keys": keys.map((k) => ({ "token-type": TOKEN_TYPE_BLIND_RSA, "token-key": toBase64UrlPadded(k.publicKey), age_over: k.ageOver })),
});
