// The parts of an X.509 certificate (RFC 5280) that deciding trust in an mdoc or SD-JWT issuer needs,
// read with @oslojs/asn1 (which the Worker already ships): the signed bytes and signature, names,
// validity, the EC public key, and the basic-constraints, key-usage and critical-extension facts.
// Nothing here decides; src/domain/digital-id/certificate-chain.ts does.
import { ASN1Class, ASN1Form, encodeASN1, parseASN1NoLeftoverBytes, type ASN1Value } from "@oslojs/asn1";
import type { Curve, Hash } from "./ecdsa";

export type Certificate = {
  der: Uint8Array<ArrayBuffer>;
  tbs: Uint8Array<ArrayBuffer>;
  signatureHash: Hash;
  signature: Uint8Array;
  issuer: Uint8Array;
  subject: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  spki: Uint8Array<ArrayBuffer>;
  curve: Curve;
  isCa: boolean;
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
/** Extensions that may be critical without changing what is checked here (EKU, names, policies, key ids, CRL points). */
const UNDERSTOOD = new Set([BASIC_CONSTRAINTS, KEY_USAGE, "2.5.29.37", "2.5.29.17", "2.5.29.18", "2.5.29.32", "2.5.29.31", "2.5.29.35", "2.5.29.14"]);

const der = (value: ASN1Value): Uint8Array<ArrayBuffer> => encodeASN1(value) as Uint8Array<ArrayBuffer>;

function oidText(value: ASN1Value): string {
  const bytes = value.objectIdentifier().encoded;
  const parts: number[] = [];
  let current = 0;
  for (const byte of bytes) {
    current = current * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      parts.push(current);
      current = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join(".");
}

function time(value: ASN1Value): Date {
  if (value.tag === 23) {
    const utc = value.utcTime();
    return utc.toDate(utc.year < 50 ? 20 : 19);
  }
  return value.generalizedTime().toDate();
}

const hasBit = (bits: Uint8Array, index: number) => ((bits[index >> 3] ?? 0) & (0x80 >> (index & 7))) !== 0;

/** Parses one DER certificate; throws on anything that is not one this service can check. */
export function parseCertificate(bytes: Uint8Array<ArrayBuffer>): Certificate {
  const certificate = parseASN1NoLeftoverBytes(bytes).sequence();
  const tbsValue = certificate.at(0);
  const tbs = tbsValue.sequence();
  const signatureHash = SIGNATURE_HASHES[oidText(certificate.at(1).sequence().at(0))];
  if (!signatureHash) throw new Error("unsupported certificate signature algorithm");
  // tbs: [0] version, serial, signature, issuer, validity, subject, spki, ... [3] extensions
  let index = tbs.at(0).class === ASN1Class.ContextSpecific ? 1 : 0;
  index++; // serial number
  if (SIGNATURE_HASHES[oidText(tbs.at(index++).sequence().at(0))] !== signatureHash) throw new Error("certificate signature algorithms differ");
  const issuer = der(tbs.at(index++));
  const validity = tbs.at(index++).sequence();
  const subject = der(tbs.at(index++));
  const spkiValue = tbs.at(index++);
  const algorithm = spkiValue.sequence().at(0).sequence();
  if (oidText(algorithm.at(0)) !== EC_PUBLIC_KEY) throw new Error("certificate key is not an EC key");
  const curve = CURVES[oidText(algorithm.at(1))];
  if (!curve) throw new Error("unsupported certificate curve");

  let isCa = false;
  let keyUsage: Certificate["keyUsage"] = null;
  const unknownCritical: string[] = [];
  for (const element of tbs.elements.slice(index)) {
    if (element.class !== ASN1Class.ContextSpecific || element.tag !== 3) continue;
    for (const extension of parseASN1NoLeftoverBytes(element.contents()).sequence().elements) {
      const parts = extension.sequence().elements;
      const id = oidText(parts[0]!);
      const critical = parts.length === 3 && parts[1]!.boolean().value;
      const value = parseASN1NoLeftoverBytes(parts[parts.length - 1]!.octetString().value);
      if (critical && !UNDERSTOOD.has(id)) unknownCritical.push(id);
      if (id === BASIC_CONSTRAINTS) {
        const first = value.sequence().elements[0];
        isCa = first !== undefined && first.class === ASN1Class.Universal && first.form === ASN1Form.Primitive && first.tag === 1 && first.boolean().value;
      }
      if (id === KEY_USAGE) {
        const bits = value.bitString().bytes;
        keyUsage = { digitalSignature: hasBit(bits, 0), keyCertSign: hasBit(bits, 5) };
      }
    }
  }
  return {
    der: bytes,
    tbs: der(tbsValue),
    signatureHash,
    signature: certificate.at(2).bitString().bytes,
    issuer,
    subject,
    notBefore: time(validity.at(0)),
    notAfter: time(validity.at(1)),
    spki: der(spkiValue),
    curve,
    isCa,
    keyUsage,
    unknownCritical,
  };
}
