// The one TokenChallenge this service redeems (docs/api-contract.md §Age tokens): token type 2, issuer_name and origin_info
// both the host of APP_URL, and an empty redemption_context, so a token can be fetched before any
// session exists and says nothing about which session it will approve. And the WWW-Authenticate value
// (RFC 9577 §2.1) that asks an anonymous client for a token.
import { toBase64UrlPadded } from "../../lib/encoding";
import type { TokenKeys } from "./token-keys";
import { encodeTokenChallenge } from "./wire-format";

/** The host of APP_URL: its hostname, with `:port` when the URL names one other than the scheme's default. */
export const serviceHost = (appUrl: string): string => new URL(appUrl).host;

export const ageTokenChallenge = (appUrl: string): Uint8Array<ArrayBuffer> =>
  encodeTokenChallenge({ issuerName: serviceHost(appUrl), redemptionContext: new Uint8Array(0), originInfo: serviceHost(appUrl) });

/**
 * One `PrivateToken` challenge per current key whose threshold meets `ageRequired`, lowest first (a
 * client should spend the token that says least), or null when no threshold offered meets it.
 */
export function wwwAuthenticateValue(challenge: Uint8Array, keys: TokenKeys, ageRequired: number): string | null {
  const usable = keys.filter((k) => k.role === "current" && k.ageOver >= ageRequired);
  if (usable.length === 0) return null;
  return usable
    .map((k) => `PrivateToken challenge="${toBase64UrlPadded(challenge)}", token-key="${toBase64UrlPadded(k.publicKey)}"`)
    .join(", ");
}
