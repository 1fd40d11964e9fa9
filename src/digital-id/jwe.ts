// Decryption of the OpenID4VP `dc_api.jwt` response (OpenID4VP 1.0 §8.3): a compact JWE (RFC 7516)
// with `alg` ECDH-ES (direct key agreement, RFC 7518 §4.6: Concat KDF over the shared secret) and
// `enc` A128GCM, to the per-request key the request published. Written on Web Crypto rather than
// pulling in a JOSE library for one algorithm pair; the OpenID4VP §8.3 example is its known answer.
import { ApiError } from "../errors";
import { fromUtf8, utf8 } from "../lib/encoding";
import { openAesGcm } from "./aes-gcm";
import { readBase64Url } from "./base64";
import { isJsonObject as isObject, ownEntry } from "./json";
import { invalid } from "./failures";

/** Only what the request advertises (`encrypted_response_enc_values_supported`): A128GCM. */
const ENCRYPTIONS: Record<string, number> = { A128GCM: 128 };

function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

/** RFC 7518 §4.6.2 / NIST SP 800-56A Concat KDF with SHA-256, for keys of at most 256 bits (one round). */
async function concatKdf(
  sharedSecret: Uint8Array,
  enc: string,
  bits: number,
  apu: Uint8Array,
  apv: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts = [
    new Uint8Array([0, 0, 0, 1]),
    sharedSecret,
    lengthPrefixed(utf8(enc)),
    lengthPrefixed(apu),
    lengthPrefixed(apv),
    new Uint8Array([0, 0, (bits >> 8) & 0xff, bits & 0xff]),
  ];
  const input = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    input.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", input)).slice(0, bits / 8);
}

function decodePart(part: string | undefined, what: string): Uint8Array<ArrayBuffer> {
  return readBase64Url(part ?? "!", `the encrypted response's ${what}`);
}

/**
 * Decrypts `jwe` for `privateJwk` (the request's P-256 key, with `kid`); returns the plaintext. Any
 * mismatch (another key id, another algorithm, a wrong tag) is DIGITAL_ID_INVALID.
 */
export async function decryptEcdhEsJwe(jwe: string, privateJwk: JsonWebKey & { kid?: string }): Promise<Uint8Array<ArrayBuffer>> {
  const parts = jwe.split(".");
  if (parts.length !== 5 || parts[1] !== "") throw invalid("the response is not a compact JWE with direct key agreement.");
  const headerBytes = decodePart(parts[0], "header");
  let header: { alg?: unknown; enc?: unknown; kid?: unknown; epk?: unknown; apu?: unknown; apv?: unknown };
  try {
    header = JSON.parse(fromUtf8(headerBytes));
  } catch {
    throw invalid("the encrypted response's header is not JSON.");
  }
  if (!isObject(header)) throw invalid("the encrypted response's header is not a JSON object.");
  const bits = typeof header.enc === "string" ? ownEntry(ENCRYPTIONS, header.enc) : undefined;
  if (header.alg !== "ECDH-ES" || bits === undefined) throw invalid("the response is not encrypted with ECDH-ES and AES-GCM.");
  if (header.kid !== undefined && header.kid !== privateJwk.kid) throw invalid("the response is encrypted to another request's key.");
  const epk = header.epk;
  if (!isObject(epk) || epk.kty !== "EC" || epk.crv !== "P-256" || typeof epk.x !== "string" || typeof epk.y !== "string")
    throw invalid("the response's ephemeral key is not a P-256 key.");
  try {
    const ephemeral = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: epk.x, y: epk.y },
      { name: "ECDH", namedCurve: "P-256" },
      false,
      [],
    );
    const own = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: privateJwk.x, y: privateJwk.y, d: privateJwk.d },
      { name: "ECDH", namedCurve: "P-256" },
      false,
      ["deriveBits"],
    );
    const sharedSecret = new Uint8Array(
      await crypto.subtle.deriveBits(
        { name: "ECDH", public: ephemeral } as unknown as Parameters<typeof crypto.subtle.deriveBits>[0],
        own,
        256,
      ),
    );
    const apu = typeof header.apu === "string" ? decodePart(header.apu, "apu") : new Uint8Array(0);
    const apv = typeof header.apv === "string" ? decodePart(header.apv, "apv") : new Uint8Array(0);
    const cek = await concatKdf(sharedSecret, header.enc as string, bits, apu, apv);
    const ciphertext = decodePart(parts[3], "ciphertext");
    const tag = decodePart(parts[4], "tag");
    const sealed = new Uint8Array(ciphertext.length + tag.length);
    sealed.set(ciphertext);
    sealed.set(tag, ciphertext.length);
    return await openAesGcm(cek, decodePart(parts[2], "iv"), sealed, utf8(parts[0]!));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalid("the response could not be decrypted with this request's key.");
  }
}
