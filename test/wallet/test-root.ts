// TEST ONLY. The committed test IACA root as an Issuer the wallet can sign with: its certificate (the
// PEM that development trusts) and its private key (a JWK). Both are public test material.
import { fromPem, type Issuer } from "./certificates";

export const TEST_IACA_NAME = "TEST ONLY - age-verification-service test IACA (never trust in production)";

export async function testRoot(pem: string, privateJwk: JsonWebKey): Promise<Issuer> {
  const privateKey = await crypto.subtle.importKey("jwk", privateJwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  const { d: _d, key_ops: _ops, ...publicJwk } = privateJwk;
  const publicKey = await crypto.subtle.importKey("jwk", publicJwk, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]);
  return { certificate: fromPem(pem), privateKey, publicKey, name: TEST_IACA_NAME };
}
