// A token key as RFC 9578 §6.5 publishes it: a DER SubjectPublicKeyInfo with the id-RSASSA-PSS OID and
// its parameters (SHA-384, MGF1 with SHA-384, salt length 48). Web Crypto exports only the
// rsaEncryption form, so this swaps the AlgorithmIdentifier and keeps the key's bits. The key id that
// requests and tokens carry is the SHA-256 of this encoding.
import { toHex } from "../../lib/encoding";

const RSA_ENCRYPTION_ALGORITHM = "300d06092a864886f70d0101010500";
// SEQUENCE { id-RSASSA-PSS, RSASSA-PSS-params { [0] sha384, [1] mgf1(sha384), [2] saltLength 48 } }
const RSASSA_PSS_SHA384_ALGORITHM =
  "303d06092a864886f70d01010a3030a00d300b0609608648016503040202a11a301806092a864886f70d010108300b0609608648016503040202a203020130";

const fromHex = (hex: string) => new Uint8Array(hex.match(/../g)!.map((byte) => parseInt(byte, 16)));

/** The length of a DER element starting at `at` (header included). */
function elementLength(der: Uint8Array, at: number): number {
  const first = der[at + 1]!;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + der[at + 2 + i]!;
  return 2 + octets + length;
}

function derLength(length: number): Uint8Array {
  if (length < 0x80) return new Uint8Array([length]);
  const octets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest % 256);
  return new Uint8Array([0x80 | octets.length, ...octets]);
}

/** rsaEncryption SPKI (what Web Crypto exports) -> the RSASSA-PSS SPKI a Privacy Pass directory lists. */
export function toRsassaPssSpki(rsaEncryptionSpki: Uint8Array): Uint8Array<ArrayBuffer> {
  const outer = rsaEncryptionSpki;
  if (outer[0] !== 0x30 || elementLength(outer, 0) !== outer.length) throw new Error("not a DER SubjectPublicKeyInfo");
  const algorithmAt = outer[1]! < 0x80 ? 2 : 2 + (outer[1]! & 0x7f);
  const algorithm = outer.slice(algorithmAt, algorithmAt + elementLength(outer, algorithmAt));
  if (toHex(algorithm) !== RSA_ENCRYPTION_ALGORITHM) throw new Error("not an rsaEncryption SubjectPublicKeyInfo");
  const subjectPublicKey = outer.slice(algorithmAt + algorithm.length);
  const pssAlgorithm = fromHex(RSASSA_PSS_SHA384_ALGORITHM);
  const body = new Uint8Array(pssAlgorithm.length + subjectPublicKey.length);
  body.set(pssAlgorithm);
  body.set(subjectPublicKey, pssAlgorithm.length);
  const length = derLength(body.length);
  const out = new Uint8Array(1 + length.length + body.length);
  out[0] = 0x30;
  out.set(length, 1);
  out.set(body, 1 + length.length);
  return out;
}

/** token_key_id = SHA-256 of the RSASSA-PSS SPKI (RFC 9578 §6.5). */
export async function tokenKeyId(rsassaPssSpki: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", rsassaPssSpki));
}
