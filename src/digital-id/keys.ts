// Per-request response-encryption keys (P-256): a fresh pair for every request, the private half kept as
// JWK in the pending state, the public half sent to the wallet (as COSE_Key or JWK).
import type { PrivateEcJwk } from "./pending";

export async function newEncryptionKey(): Promise<PrivateEcJwk> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return { kty: "EC", crv: "P-256", x: jwk.x!, y: jwk.y!, d: jwk.d! };
}

export const publicPart = ({ x, y }: PrivateEcJwk) => ({ kty: "EC" as const, crv: "P-256" as const, x, y });
