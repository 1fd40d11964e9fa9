// TEST ONLY. Makes the X.509 certificates a test wallet's issuers need (RFC 5280 DER, ECDSA P-256 with
// SHA-256, Web Crypto for keys and signatures, @oslojs/asn1 for the encoding): an IACA-style root (a CA
// allowed to sign certificates) and the document or credential signers under it. Each knob makes one
// kind of certificate the verifier must refuse.
import {
  ASN1BitString,
  ASN1Boolean,
  ASN1Class,
  ASN1EncodableSequence,
  ASN1EncodableSet,
  ASN1Form,
  ASN1GeneralizedTime,
  ASN1Integer,
  ASN1ObjectIdentifier,
  ASN1OctetString,
  ASN1UTF8String,
  encodeASN1,
  encodeObjectIdentifier,
  parseASN1NoLeftoverBytes,
  type ASN1Encodable,
} from "@oslojs/asn1";

export type Issuer = { certificate: Uint8Array<ArrayBuffer>; privateKey: CryptoKey; publicKey: CryptoKey; name: string };

const oid = (text: string) => new ASN1ObjectIdentifier(encodeObjectIdentifier(text));
const utf8 = (text: string) => new ASN1UTF8String(new TextEncoder().encode(text));
const explicit = (tag: number, inner: ASN1Encodable): ASN1Encodable => ({
  class: ASN1Class.ContextSpecific,
  form: ASN1Form.Constructed,
  tag,
  contents: () => encodeASN1(inner),
});
const time = (date: Date) =>
  new ASN1GeneralizedTime(
    date.getUTCFullYear(),
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    0,
  );
const name = (commonName: string) =>
  new ASN1EncodableSequence([new ASN1EncodableSet([new ASN1EncodableSequence([oid("2.5.4.3"), utf8(commonName)])])]);
const extension = (id: string, critical: boolean, value: ASN1Encodable) =>
  new ASN1EncodableSequence([oid(id), ...(critical ? [new ASN1Boolean(true)] : []), new ASN1OctetString(encodeASN1(value))]);

function derSignature(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  const integer = (bytes: Uint8Array) => new ASN1Integer(BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`));
  return encodeASN1(new ASN1EncodableSequence([integer(raw.subarray(0, half)), integer(raw.subarray(half))]));
}

export type CertificateOptions = {
  subject: string;
  /** The issuer; absent for a self-signed root. */
  issuer?: Issuer;
  ca: boolean;
  notBefore?: Date;
  notAfter?: Date;
  /** KeyUsage bits to set instead of the role's own (digitalSignature for signers, keyCertSign for CAs). */
  keyUsage?: "digitalSignature" | "keyCertSign" | "none";
  /** Extended key usage, e.g. 1.0.18013.5.1.2 for an mdoc document signer (several: an array). */
  extendedKeyUsage?: string | string[];
  /** An extra critical extension the verifier does not know. */
  unknownCriticalExtension?: boolean;
  /** A CA's basicConstraints pathLenConstraint: 0 by default (as an IACA root has it), null to leave it out. */
  pathLength?: number | null;
  /** The certificate's key pair instead of a fresh one (a root renewed around the same key). */
  keyPair?: CryptoKeyPair;
};

export async function makeIssuer(options: CertificateOptions): Promise<Issuer> {
  const pair =
    options.keyPair ??
    ((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair);
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer);
  const usage = options.keyUsage ?? (options.ca ? "keyCertSign" : "digitalSignature");
  const pathLength = options.pathLength === undefined ? 0 : options.pathLength;
  const caConstraints = pathLength === null ? [new ASN1Boolean(true)] : [new ASN1Boolean(true), new ASN1Integer(BigInt(pathLength))];
  const extensions: ASN1Encodable[] = [extension("2.5.29.19", true, new ASN1EncodableSequence(options.ca ? caConstraints : []))];
  if (usage === "digitalSignature") extensions.push(extension("2.5.29.15", true, new ASN1BitString(new Uint8Array([0x80]), 1)));
  if (usage === "keyCertSign") extensions.push(extension("2.5.29.15", true, new ASN1BitString(new Uint8Array([0x06]), 7)));
  if (options.extendedKeyUsage)
    extensions.push(extension("2.5.29.37", true, new ASN1EncodableSequence([options.extendedKeyUsage].flat().map(oid))));
  if (options.unknownCriticalExtension) extensions.push(extension("1.3.6.1.4.1.99999.1", true, new ASN1Boolean(true)));
  const signatureAlgorithm = new ASN1EncodableSequence([oid("1.2.840.10045.4.3.2")]);
  const tbs = new ASN1EncodableSequence([
    explicit(0, new ASN1Integer(2n)),
    new ASN1Integer(BigInt(`0x${Array.from(crypto.getRandomValues(new Uint8Array(15)), (b) => b.toString(16).padStart(2, "0")).join("")}`)),
    signatureAlgorithm,
    name(options.issuer?.name ?? options.subject),
    new ASN1EncodableSequence([
      time(options.notBefore ?? new Date("2025-01-01T00:00:00Z")),
      time(options.notAfter ?? new Date("2035-01-01T00:00:00Z")),
    ]),
    name(options.subject),
    parseASN1NoLeftoverBytes(spki),
    explicit(3, new ASN1EncodableSequence(extensions)),
  ]);
  const tbsBytes = encodeASN1(tbs) as Uint8Array<ArrayBuffer>;
  const signingKey = options.issuer?.privateKey ?? pair.privateKey;
  const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signingKey, tbsBytes));
  const signature = derSignature(raw);
  const certificate = encodeASN1(
    new ASN1EncodableSequence([parseASN1NoLeftoverBytes(tbsBytes), signatureAlgorithm, new ASN1BitString(signature, signature.length * 8)]),
  );
  return {
    certificate: certificate as Uint8Array<ArrayBuffer>,
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    name: options.subject,
  };
}

export function toPem(der: Uint8Array): string {
  let binary = "";
  for (const byte of der) binary += String.fromCharCode(byte);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

export function fromPem(pem: string): Uint8Array<ArrayBuffer> {
  const body = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem)?.[1] ?? "";
  const binary = atob(body.replace(/\s+/g, ""));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
