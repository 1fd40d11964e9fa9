// AES-GCM opening (128-bit tag) for both encrypted answers: the JWE of OpenID4VP and the HPKE seal of
// Annex C. One function so that the published vectors (test/node/wycheproof.test.ts) cover both paths.
/** Decrypts `sealed` (ciphertext || 16-byte tag); throws when the key, nonce, data or tag do not match. */
export async function openAesGcm(
  key: Uint8Array,
  iv: Uint8Array<ArrayBuffer>,
  sealed: Uint8Array<ArrayBuffer>,
  additionalData: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  // 96-bit nonces only (RFC 7518 §5.3 for A128GCM, RFC 9180's Nn for HPKE); runtimes differ on others.
  if (iv.length !== 12) throw new RangeError("AES-GCM nonce is not 96 bits");
  const aesKey = await crypto.subtle.importKey("raw", Uint8Array.from(key), "AES-GCM", false, ["decrypt"]);
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData, tagLength: 128 }, aesKey, sealed));
}
