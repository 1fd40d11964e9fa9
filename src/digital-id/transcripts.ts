// The SessionTranscripts that bind a wallet's device signature to this request: ISO/IEC TS 18013-7
// Annex C (`dcapi` handover: the EncryptionInfo as sent and the page's origin) and OpenID4VP 1.0
// Appendix B.2.6.2 (`OpenID4VPDCAPIHandover`: origin, nonce and the response key's JWK thumbprint).
// Both hash their handover info, so the transcript has a fixed shape: [null, null, [name, sha256]].
import { utf8 } from "../lib/encoding";
import { encodeCbor, type Cbor } from "./cbor";

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

export async function annexCTranscript(encryptionInfoBase64Url: string, origin: string): Promise<Cbor> {
  return [null, null, ["dcapi", await sha256(encodeCbor([encryptionInfoBase64Url, origin]))]];
}

export async function openId4VpTranscript(origin: string, nonce: string, jwkThumbprint: Uint8Array | null): Promise<Cbor> {
  return [null, null, ["OpenID4VPDCAPIHandover", await sha256(encodeCbor([origin, nonce, jwkThumbprint]))]];
}

/** RFC 7638 SHA-256 thumbprint of an EC public key: the required members in lexicographic order. */
export async function ecJwkThumbprint(jwk: { crv?: string; x?: string; y?: string }): Promise<Uint8Array<ArrayBuffer>> {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: "EC", x: jwk.x, y: jwk.y });
  return sha256(utf8(canonical));
}
