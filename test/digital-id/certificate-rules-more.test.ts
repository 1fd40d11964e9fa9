// The certificates an issuer may really send, and the ones it may not, spelled byte by byte: what the test
// wallet's certificates never carry (a version 1 certificate, unique identifiers, non-critical extensions,
// an explicit cA FALSE, a pathLenConstraint above 255, other algorithms and curves) and the edges of the
// chain rules (validity to the second, name chaining, the chain's length, a signer trusted as an anchor).
// The operator sees why a configured anchor cannot be used (parseTrustAnchors names the reason); a
// credential's chain answers DIGITAL_ID_INVALID (docs/digital-id.md, "What is verified").
import { encodeObjectIdentifier } from "@oslojs/asn1";
import { describe, expect, it, vi } from "vitest";
import { parseTrustAnchors, verifyChain } from "../../src/digital-id/certificate-chain";
import { toPem } from "../wallet";

vi.setConfig({ testTimeout: 60_000 });

const ECDSA_SHA256 = "1.2.840.10045.4.3.2";
const ECDSA_SHA384 = "1.2.840.10045.4.3.3";
const BASIC_CONSTRAINTS = "2.5.29.19";
const KEY_USAGE = "2.5.29.15";
const UNKNOWN_EXTENSION = "1.3.6.1.4.1.99999.1";
const NOT_BEFORE = new Date("2025-01-01T00:00:00Z");
const NOT_AFTER = new Date("2035-01-01T00:00:00Z");

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};
/** One DER item: its identifier byte, a definite length and the contents. */
const tlv = (identifier: number, ...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const contents = concat(parts);
  const n = contents.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Uint8Array.from([identifier, ...length, ...contents]);
};
const bytes = (...values: number[]) => Uint8Array.from(values);
const sequence = (...parts: Uint8Array[]) => tlv(0x30, ...parts);
const oid = (text: string) => tlv(0x06, encodeObjectIdentifier(text));
const boolean = (value: boolean) => tlv(0x01, bytes(value ? 0xff : 0x00));
const integer = (...contents: number[]) => tlv(0x02, bytes(...contents));
const name = (commonName: string) => sequence(tlv(0x31, sequence(oid("2.5.4.3"), tlv(0x0c, new TextEncoder().encode(commonName)))));
const generalizedTime = (date: Date) => tlv(0x18, new TextEncoder().encode(`${date.toISOString().slice(0, 19).replace(/[-:T]/g, "")}Z`));
/** An extension: critical absent (the DER default, FALSE), or TRUE, or FALSE spelled out as some issuers do. */
const extension = (id: string, value: Uint8Array, critical: "absent" | "true" | "explicit false" = "true") =>
  sequence(oid(id), ...(critical === "absent" ? [] : [boolean(critical === "true")]), tlv(0x04, value));
const basicConstraints = (...fields: Uint8Array[]) => extension(BASIC_CONSTRAINTS, sequence(...fields));
const SIGNER_KEY_USAGE = extension(KEY_USAGE, tlv(0x03, bytes(7, 0x80)));
const CA_KEY_USAGE = extension(KEY_USAGE, tlv(0x03, bytes(1, 0x06)));
const CA = (pathLength?: number[]) => [basicConstraints(boolean(true), ...(pathLength ? [integer(...pathLength)] : [])), CA_KEY_USAGE];
const SIGNER = [basicConstraints(), SIGNER_KEY_USAGE];
/** A CA without a pathLenConstraint: any number of CAs may follow it. */
const OPEN_CA = [basicConstraints(boolean(true)), CA_KEY_USAGE];

type Key = { privateKey: CryptoKey; spki: Uint8Array; name: string };
type Certificate = { der: Uint8Array<ArrayBuffer>; key: Key };

async function newKey(subject: string): Promise<Key> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return {
    privateKey: pair.privateKey,
    spki: new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer),
    name: subject,
  };
}

/** ECDSA-Sig-Value: r and s as minimal positive DER INTEGERs. */
function derSignature(raw: Uint8Array): Uint8Array {
  const positive = (half: Uint8Array) => {
    let start = 0;
    while (start < half.length - 1 && half[start] === 0) start++;
    const trimmed = half.subarray(start);
    return tlv(0x02, (trimmed[0]! & 0x80) !== 0 ? concat([bytes(0), trimmed]) : trimmed);
  };
  return sequence(positive(raw.subarray(0, raw.length / 2)), positive(raw.subarray(raw.length / 2)));
}

type Shape = {
  subject: string;
  /** The issuer's key and name; absent: self-signed. */
  issuer?: Key;
  /** The issuer name written in the certificate, when it is not the issuer's own. */
  issuerName?: string;
  extensions?: Uint8Array[] | null;
  version?: 1 | 3;
  uniqueIdentifiers?: boolean;
  signatureAlgorithm?: string;
  tbsSignatureAlgorithm?: string;
  /** The public key info, when it is not the certificate's own EC key. */
  spki?: Uint8Array;
  unusedBits?: number;
  notBefore?: Date;
  notAfter?: Date;
};

async function certificate(shape: Shape): Promise<Certificate> {
  const key = await newKey(shape.subject);
  const signer = shape.issuer ?? key;
  const outerAlgorithm = sequence(oid(shape.signatureAlgorithm ?? ECDSA_SHA256));
  const tbs = sequence(
    ...(shape.version === 1 ? [] : [tlv(0xa0, integer(2))]),
    integer(0x01, ...crypto.getRandomValues(new Uint8Array(8))),
    sequence(oid(shape.tbsSignatureAlgorithm ?? shape.signatureAlgorithm ?? ECDSA_SHA256)),
    name(shape.issuerName ?? signer.name),
    sequence(generalizedTime(shape.notBefore ?? NOT_BEFORE), generalizedTime(shape.notAfter ?? NOT_AFTER)),
    name(shape.subject),
    shape.spki ?? key.spki,
    ...(shape.uniqueIdentifiers ? [tlv(0x81, bytes(0, 1, 2, 3)), tlv(0x82, bytes(0, 4, 5, 6))] : []),
    ...(shape.version === 1 || shape.extensions === null ? [] : [tlv(0xa3, sequence(...(shape.extensions ?? SIGNER)))]),
  );
  const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signer.privateKey, tbs));
  const der = sequence(tbs, outerAlgorithm, tlv(0x03, bytes(shape.unusedBits ?? 0), derSignature(raw)));
  return { der, key };
}

const root = (extensions: Uint8Array[] = CA()) => certificate({ subject: "TEST ONLY root", extensions });
const trust = (...anchors: Certificate[]) => parseTrustAnchors(anchors.map((anchor) => toPem(anchor.der)).join(""));

/** What an operator configuring this certificate as a trust anchor is told. */
function anchorRefusal(der: Uint8Array): string {
  try {
    parseTrustAnchors(toPem(der));
  } catch (error) {
    return (error as Error).message;
  }
  return "USABLE";
}

async function chainOutcome(chain: Certificate[], anchors: ReturnType<typeof trust>, now = new Date()): Promise<string> {
  return verifyChain(
    chain.map((link) => link.der),
    anchors,
    now,
    "sd-jwt-vc",
  ).then(
    () => "APPROVED",
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );
}

const refused = (reason: string) => `DIGITAL_ID_INVALID: The digital ID did not verify: ${reason}`;

describe("what a certificate must be for this service to check it (the operator is told why not)", () => {
  it("an ECDSA signature with SHA-256, -384 or -512 only: SHA-1 or RSA is refused", async () => {
    for (const algorithm of ["1.2.840.10045.4.1", "1.2.840.113549.1.1.11"]) {
      expect(anchorRefusal((await certificate({ subject: "TEST ONLY other algorithm", signatureAlgorithm: algorithm })).der)).toBe(
        "DIGITAL_ID_TRUST_ANCHORS certificate 1 cannot be used: unsupported certificate signature algorithm",
      );
    }
  });

  it("the signed part must name the algorithm the signature uses", async () => {
    const differing = await certificate({ subject: "TEST ONLY", signatureAlgorithm: ECDSA_SHA256, tbsSignatureAlgorithm: ECDSA_SHA384 });
    expect(anchorRefusal(differing.der)).toBe(
      "DIGITAL_ID_TRUST_ANCHORS certificate 1 cannot be used: certificate signature algorithms differ",
    );
  });

  it("the signature BIT STRING has no unused bits", async () => {
    expect(anchorRefusal((await certificate({ subject: "TEST ONLY", unusedBits: 1 })).der)).toBe(
      "DIGITAL_ID_TRUST_ANCHORS certificate 1 cannot be used: certificate signature has unused bits",
    );
  });

  it("an EC key on P-256, P-384 or P-521 only: an RSA or Ed25519 key, or secp256k1, is refused", async () => {
    const rsa = sequence(sequence(oid("1.2.840.113549.1.1.1"), bytes(0x05, 0x00)), tlv(0x03, bytes(0, 1, 2, 3)));
    const ed25519 = sequence(sequence(oid("1.3.101.112")), tlv(0x03, bytes(0, ...new Uint8Array(32))));
    for (const spki of [rsa, ed25519]) {
      expect(anchorRefusal((await certificate({ subject: "TEST ONLY", spki })).der)).toBe(
        "DIGITAL_ID_TRUST_ANCHORS certificate 1 cannot be used: certificate key is not an EC key",
      );
    }
    const secp256k1 = sequence(sequence(oid("1.2.840.10045.2.1"), oid("1.3.132.0.10")), tlv(0x03, bytes(0, 4, ...new Uint8Array(64))));
    expect(anchorRefusal((await certificate({ subject: "TEST ONLY", spki: secp256k1 })).der)).toBe(
      "DIGITAL_ID_TRUST_ANCHORS certificate 1 cannot be used: unsupported certificate curve",
    );
  });

  it("a pathLenConstraint that is negative, empty or more than two bytes is refused", async () => {
    for (const pathLength of [[0xff], [], [0x01, 0x00, 0x00]]) {
      expect(anchorRefusal((await root(CA(pathLength))).der), String(pathLength)).toBe(
        "DIGITAL_ID_TRUST_ANCHORS certificate 1 cannot be used: pathLenConstraint is not a small non-negative integer",
      );
    }
  });
});

describe("certificates the test wallet never makes, read as RFC 5280 has them", () => {
  it("a root's pathLenConstraint of 256 (two bytes) allows an intermediate CA", async () => {
    const wide = await root(CA([0x01, 0x00]));
    const intermediate = await certificate({ subject: "TEST ONLY intermediate", issuer: wide.key, extensions: CA() });
    const signer = await certificate({ subject: "TEST ONLY signer", issuer: intermediate.key });
    expect(await chainOutcome([signer, intermediate], trust(wide))).toBe("APPROVED");
  });

  it("a version 1 certificate (no version field, no extensions) is read: an operator may trust such a signer itself", async () => {
    const issuer = await root();
    const signer = await certificate({ subject: "TEST ONLY v1 signer", issuer: issuer.key, version: 1 });
    expect(await chainOutcome([signer], trust(signer))).toBe("APPROVED");
  });

  it("issuer and subject unique identifiers before the extensions are skipped", async () => {
    const issuer = await root();
    const signer = await certificate({ subject: "TEST ONLY signer with unique ids", issuer: issuer.key, uniqueIdentifiers: true });
    expect(await chainOutcome([signer], trust(issuer))).toBe("APPROVED");
  });

  it("a non-critical extension, or one marked critical FALSE explicitly, is not critical, however unknown", async () => {
    const issuer = await root();
    for (const critical of ["absent", "explicit false"] as const) {
      const signer = await certificate({
        subject: "TEST ONLY signer",
        issuer: issuer.key,
        extensions: [...SIGNER, extension(UNKNOWN_EXTENSION, boolean(true), critical)],
      });
      expect(await chainOutcome([signer], trust(issuer)), critical).toBe("APPROVED");
    }
    const criticalUnknown = await certificate({
      subject: "TEST ONLY signer",
      issuer: issuer.key,
      extensions: [...SIGNER, extension(UNKNOWN_EXTENSION, boolean(true), "true")],
    });
    expect(await chainOutcome([criticalUnknown], trust(issuer))).toBe(
      refused("the issuer's signing certificate has a critical extension this service does not understand."),
    );
  });

  it("only basicConstraints' cA TRUE makes a CA: not cA FALSE spelled out, a pathLenConstraint alone, or a context-tagged field", async () => {
    const notCas = [
      [basicConstraints(boolean(false)), CA_KEY_USAGE],
      [basicConstraints(integer(1)), CA_KEY_USAGE],
      [basicConstraints(tlv(0x81, bytes(0xff))), CA_KEY_USAGE],
    ];
    for (const extensions of notCas) {
      const issuer = await root(extensions);
      const signer = await certificate({ subject: "TEST ONLY signer", issuer: issuer.key });
      expect(await chainOutcome([signer], trust(issuer))).toBe(
        refused("a certificate in the issuer's chain is signed by a certificate that is not a CA."),
      );
      // The same basicConstraints on a signer: it signs as an end entity, not a CA.
      const itself = await certificate({ subject: "TEST ONLY signer", issuer: issuer.key, extensions: [extensions[0]!, SIGNER_KEY_USAGE] });
      expect(await chainOutcome([itself], trust(itself))).toBe("APPROVED");
    }
  });
});

describe("the chain's rules at their edges", () => {
  it("a certificate is valid from its notBefore to its notAfter, both included, to the second", async () => {
    const issuer = await root();
    const notBefore = new Date("2026-03-01T10:00:00Z");
    const notAfter = new Date("2026-09-01T10:00:00Z");
    const signer = await certificate({ subject: "TEST ONLY signer", issuer: issuer.key, notBefore, notAfter });
    const at = (date: Date, offset: number) => new Date(date.getTime() + offset);
    expect(await chainOutcome([signer], trust(issuer), notBefore)).toBe("APPROVED");
    expect(await chainOutcome([signer], trust(issuer), notAfter)).toBe("APPROVED");
    expect(await chainOutcome([signer], trust(issuer), at(notBefore, -1000))).toBe(
      refused("the issuer's signing certificate is not valid yet."),
    );
    expect(await chainOutcome([signer], trust(issuer), at(notAfter, 1000))).toBe(refused("the issuer's signing certificate has expired."));
  });

  it("a certificate signed by an anchor's key but naming another issuer does not chain to it", async () => {
    const issuer = await root();
    const misnamed = await certificate({ subject: "TEST ONLY signer", issuer: issuer.key, issuerName: "TEST ONLY another root" });
    expect(await chainOutcome([misnamed], trust(issuer))).toBe(refused("the issuer's certificate does not chain to a trusted issuer."));
  });

  it("a chain of up to four certificates is read; none, or five, is refused before any is", async () => {
    const open = await root(OPEN_CA);
    const intermediates: Certificate[] = [];
    for (const level of [1, 2, 3, 4]) {
      const above = intermediates[0]?.key ?? open.key;
      intermediates.unshift(await certificate({ subject: `TEST ONLY intermediate ${level}`, issuer: above, extensions: OPEN_CA }));
    }
    const under = (intermediate: Certificate) => certificate({ subject: "TEST ONLY signer", issuer: intermediate.key });
    const [fourth, third, second, first] = intermediates as [Certificate, Certificate, Certificate, Certificate];
    expect(await chainOutcome([await under(third), third, second, first], trust(open))).toBe("APPROVED");
    expect(await chainOutcome([await under(fourth), fourth, third, second, first], trust(open))).toBe(
      refused("the issuer's certificate chain is missing or too long."),
    );
    expect(await chainOutcome([], trust(open))).toBe(refused("the issuer's certificate chain is missing or too long."));
  });

  it("a certificate that cannot be read anywhere in the chain is refused as such", async () => {
    const issuer = await root();
    const signer = await certificate({ subject: "TEST ONLY signer", issuer: issuer.key });
    const unreadable = { der: bytes(0x30, 0x00) as Uint8Array<ArrayBuffer>, key: signer.key };
    expect(await chainOutcome([signer, unreadable], trust(issuer))).toBe(refused("a certificate in the issuer's chain could not be read."));
  });

  it("a signer the operator configured as an anchor is trusted as is, beside other anchors", async () => {
    const unrelated = await root();
    const signer = await certificate({ subject: "TEST ONLY signer", issuer: (await root()).key });
    expect(await chainOutcome([signer], trust(unrelated, signer))).toBe("APPROVED");
    expect(await chainOutcome([signer], trust(signer, unrelated))).toBe("APPROVED");
    expect(await chainOutcome([signer], trust(unrelated))).toBe(refused("the issuer's certificate does not chain to a trusted issuer."));
  });
});
