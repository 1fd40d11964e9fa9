// HPKE (RFC 9180) through @hpke/core, in the one suite ISO/IEC TS 18013-7 Annex C names for the
// wallet's response: base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, empty AAD.
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";

export const annexCSuite = () => new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });

/** Opens one sealed message for the recipient's private key (a P-256 JWK with `d`, or the raw scalar). */
export async function hpkeOpen(recipient: JsonWebKey | Uint8Array<ArrayBuffer>, enc: Uint8Array<ArrayBuffer>, ciphertext: Uint8Array<ArrayBuffer>, info: Uint8Array<ArrayBuffer>, aad?: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const suite = annexCSuite();
  const recipientKey = recipient instanceof Uint8Array ? await suite.kem.importKey("raw", recipient.buffer, false) : await suite.kem.importKey("jwk", recipient, false);
  return new Uint8Array(await suite.open({ recipientKey, enc: enc.buffer, info: info.buffer }, ciphertext, aad ?? new Uint8Array(0)));
}
