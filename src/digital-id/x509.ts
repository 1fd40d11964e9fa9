// The parts of an X.509 certificate (RFC 5280) that deciding trust in an mdoc or SD-JWT issuer needs,
// read with the DER reader beside it: the signed bytes and signature, names,
// validity, the EC public key, and the basic-constraints, key-usage and critical-extension facts.
// Nothing here decides; src/digital-id/certificate-chain.ts does.
import { children, expect, oid as oidText, parseDer, time, UNIVERSAL, type Der } from "./der";
import type { Curve, Hash } from "./ecdsa";

export type Certificate = {
  der: Uint8Array<ArrayBuffer>;
  tbs: Uint8Array<ArrayBuffer>;
  signatureHash: Hash;
  signature: Uint8Array<ArrayBuffer>;
  issuer: Uint8Array;
  subject: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  spki: Uint8Array<ArrayBuffer>;
  curve: Curve;
  isCa: boolean;
  /** basicConstraints pathLenConstraint: how many CA certificates may follow this one down the path; null when absent. */
  pathLength: number | null;
  /** Extended key usage purposes (OIDs), or null when the extension is absent (any purpose). */
  extendedKeyUsage: string[] | null;
  /** KeyUsage bits, or null when the extension is absent. */
  keyUsage: { digitalSignature: boolean; keyCertSign: boolean } | null;
  /** Critical extensions this code does not understand: a certificate with any is refused (RFC 5280 §4.2). */
  unknownCritical: string[];
};

const SIGNATURE_HASHES: Record<string, Hash> = {
  "1.2.840.10045.4.3.2": "SHA-256",
  "1.2.840.10045.4.3.3": "SHA-384",
  "1.2.840.10045.4.3.4": "SHA-512",
};
const CURVES: Record<string, Curve> = { "1.2.840.10045.3.1.7": "P-256", "1.3.132.0.34": "P-384", "1.3.132.0.35": "P-521" };
const EC_PUBLIC_KEY = "1.2.840.10045.2.1";
const BASIC_CONSTRAINTS = "2.5.29.19";
const KEY_USAGE = "2.5.29.15";
const EXTENDED_KEY_USAGE = "2.5.29.37";
/** Extensions that may be critical without changing what is checked here (names, policies, key ids, CRL points). */
const UNDERSTOOD = new Set([
  BASIC_CONSTRAINTS,
  KEY_USAGE,
  EXTENDED_KEY_USAGE,
  "2.5.29.17",
  "2.5.29.18",
  "2.5.29.32",
  "2.5.29.31",
  "2.5.29.35",
  "2.5.29.14",
]);

const hasBit = (bits: Uint8Array, index: number) => ((bits[index >> 3] ?? 0) & (0x80 >> (index & 7))) !== 0;

/** A non-negative DER INTEGER of at most two bytes (a pathLenConstraint); anything else is refused. */
function smallUnsigned(contents: Uint8Array): number {
  if (contents.length === 0 || contents.length > 2 || (contents[0]! & 0x80) !== 0)
    throw new Error("pathLenConstraint is not a small non-negative integer");
  return contents.reduce((value, byte) => value * 256 + byte, 0);
}

/** Parses one DER certificate; throws on anything that is not one this service can check. */
export function parseCertificate(bytes: Uint8Array<ArrayBuffer>): Certificate {
  const certificate = children(expect(parseDer(bytes), UNIVERSAL.SEQUENCE));
  const tbsItem = expect(certificate[0], UNIVERSAL.SEQUENCE);
  const tbs = children(tbsItem);
  const signatureHash = SIGNATURE_HASHES[oidText(children(expect(certificate[1], UNIVERSAL.SEQUENCE))[0])];
  if (!signatureHash) throw new Error("unsupported certificate signature algorithm");
  const signatureBits = expect(certificate[2], UNIVERSAL.BIT_STRING).contents;
  if (signatureBits[0] !== 0) throw new Error("certificate signature has unused bits");
  // tbs: [0] version, serial, signature, issuer, validity, subject, spki, ... [3] extensions
  let index = tbs[0]?.tagClass === 2 ? 1 : 0;
  index++; // serial number
  if (SIGNATURE_HASHES[oidText(children(expect(tbs[index++], UNIVERSAL.SEQUENCE))[0])] !== signatureHash)
    throw new Error("certificate signature algorithms differ");
  const issuer = expect(tbs[index++], UNIVERSAL.SEQUENCE).encoded;
  const validity = children(expect(tbs[index++], UNIVERSAL.SEQUENCE));
  const subject = expect(tbs[index++], UNIVERSAL.SEQUENCE).encoded;
  const spkiItem = expect(tbs[index++], UNIVERSAL.SEQUENCE);
  const algorithm = children(expect(children(spkiItem)[0], UNIVERSAL.SEQUENCE));
  if (oidText(algorithm[0]) !== EC_PUBLIC_KEY) throw new Error("certificate key is not an EC key");
  const curve = CURVES[oidText(algorithm[1])];
  if (!curve) throw new Error("unsupported certificate curve");

  let isCa = false;
  let pathLength: number | null = null;
  let extendedKeyUsage: string[] | null = null;
  let keyUsage: Certificate["keyUsage"] = null;
  const unknownCritical: string[] = [];
  for (const element of tbs.slice(index)) {
    if (element.tagClass !== 2 || element.tag !== 3) continue;
    for (const extension of children(expect(children(element)[0], UNIVERSAL.SEQUENCE))) {
      const parts = children(expect(extension, UNIVERSAL.SEQUENCE));
      const id = oidText(parts[0]);
      const critical = parts.length === 3 && expect(parts[1], UNIVERSAL.BOOLEAN).contents[0] !== 0;
      const value = parseDer(expect(parts[parts.length - 1], UNIVERSAL.OCTET_STRING).contents);
      if (critical && !UNDERSTOOD.has(id)) unknownCritical.push(id);
      if (id === BASIC_CONSTRAINTS) {
        // BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }
        const fields = children(expect(value, UNIVERSAL.SEQUENCE));
        const first: Der | undefined = fields[0];
        isCa = first !== undefined && first.tagClass === 0 && first.tag === UNIVERSAL.BOOLEAN && first.contents[0] !== 0;
        const limit = fields.find((field) => field.tagClass === 0 && field.tag === UNIVERSAL.INTEGER);
        if (limit) pathLength = smallUnsigned(limit.contents);
      }
      if (id === EXTENDED_KEY_USAGE) extendedKeyUsage = children(expect(value, UNIVERSAL.SEQUENCE)).map(oidText);
      if (id === KEY_USAGE) {
        const bits = expect(value, UNIVERSAL.BIT_STRING).contents.subarray(1);
        keyUsage = { digitalSignature: hasBit(bits, 0), keyCertSign: hasBit(bits, 5) };
      }
    }
  }
  return {
    der: bytes,
    tbs: tbsItem.encoded,
    signatureHash,
    signature: signatureBits.subarray(1),
    issuer,
    subject,
    notBefore: time(validity[0]),
    notAfter: time(validity[1]),
    spki: spkiItem.encoded,
    curve,
    isCa,
    pathLength,
    extendedKeyUsage,
    keyUsage,
    unknownCritical,
  };
}
