// The document signer of the proof-of-age attestations (docs/attestations.md): ATTESTATION_SIGNING_KEY
// (a P-256 private JWK) and ATTESTATION_CERTIFICATES (PEM: the document signer's certificate, then the
// IACA root it chains to), imported once per isolate. Unset: the deployment issues nothing. A value that
// does not import, a key that is not the certificate's, or a certificate that is not a document signer
// is the deployment's fault: 503 MISCONFIGURED at first use, and the memo keeps the failure, so nothing
// half-works (the synchronous checks, including production's refusal of the committed test material,
// are in src/config/problems.ts).
import { misconfigured, type Settings } from "../../config/settings";
import { perObject } from "../../lib/per-object";
import { parseCertificate, type Certificate } from "../../digital-id/x509";
import { fromBase64, sameBytes, toBase64 } from "../../lib/encoding";

export const ATTESTATION_SIGNING_KEY_SETTING = "ATTESTATION_SIGNING_KEY";
export const ATTESTATION_CERTIFICATES_SETTING = "ATTESTATION_CERTIFICATES";

export type AttestationSigner = {
  privateKey: CryptoKey;
  /** The document signer's certificate (DER): the attestations' x5chain. */
  certificate: Uint8Array<ArrayBuffer>;
  /** The IACA root as PEM, served to relying parties and trusted lists. */
  iacaPem: string;
};

class SignerMisconfigured extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(problem);
  }
}

/** The PEM CERTIFICATE blocks of a setting, as DER. */
export function pemBlocks(pem: string): Uint8Array<ArrayBuffer>[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((block) =>
    fromBase64(block[1]!.replace(/\s+/g, "")),
  );
}

const toPem = (der: Uint8Array) =>
  `-----BEGIN CERTIFICATE-----\n${(toBase64(der).match(/.{1,64}/g) ?? []).join("\n")}\n-----END CERTIFICATE-----\n`;

async function loadSigner(keySetting: string, certificatesSetting: string): Promise<AttestationSigner> {
  let jwk: JsonWebKey;
  try {
    jwk = JSON.parse(keySetting) as JsonWebKey;
  } catch {
    throw new SignerMisconfigured(ATTESTATION_SIGNING_KEY_SETTING, "is not a JSON Web Key");
  }
  if (jwk.kty !== "EC" || jwk.crv !== "P-256" || typeof jwk.d !== "string")
    throw new SignerMisconfigured(ATTESTATION_SIGNING_KEY_SETTING, "must be a P-256 private key (JWK)");
  let privateKey: CryptoKey;
  let publicSpki: Uint8Array;
  try {
    privateKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, d: jwk.d },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    const publicKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y },
      { name: "ECDSA", namedCurve: "P-256" },
      true,
      ["verify"],
    );
    publicSpki = new Uint8Array((await crypto.subtle.exportKey("spki", publicKey)) as ArrayBuffer);
  } catch {
    throw new SignerMisconfigured(ATTESTATION_SIGNING_KEY_SETTING, "does not import as a P-256 private key");
  }
  const blocks = pemBlocks(certificatesSetting);
  if (blocks.length !== 2)
    throw new SignerMisconfigured(
      ATTESTATION_CERTIFICATES_SETTING,
      "must hold two PEM certificates: the document signer's, then the IACA root",
    );
  let signer: Certificate;
  let root: Certificate;
  try {
    [signer, root] = blocks.map(parseCertificate) as [Certificate, Certificate];
  } catch {
    throw new SignerMisconfigured(ATTESTATION_CERTIFICATES_SETTING, "holds a certificate this service cannot read");
  }
  if (!sameBytes(signer.spki, publicSpki))
    throw new SignerMisconfigured(ATTESTATION_SIGNING_KEY_SETTING, "is not the key of the document signer's certificate");
  if (signer.isCa || !sameBytes(signer.issuer, root.subject) || !root.isCa) {
    throw new SignerMisconfigured(
      ATTESTATION_CERTIFICATES_SETTING,
      "must be a document signer's certificate issued by the IACA root that follows it",
    );
  }
  return { privateKey, certificate: signer.der, iacaPem: toPem(root.der) };
}

const importedSigner = perObject((settings: Settings): Promise<AttestationSigner> | null => {
  if (settings.attestationSigningKey === undefined || settings.attestationCertificates === undefined) return null;
  const signer = loadSigner(settings.attestationSigningKey, settings.attestationCertificates);
  // Handled where awaited; this only keeps a failed import from being reported as unhandled meanwhile.
  signer.catch(() => undefined);
  return signer;
});

/** The document signer, or null when the deployment offers no issuance; 503 MISCONFIGURED when it does not import. */
export async function attestationSigner(settings: Settings): Promise<AttestationSigner | null> {
  const signer = importedSigner(settings);
  if (signer === null) return null;
  try {
    return await signer;
  } catch (error) {
    if (!(error instanceof SignerMisconfigured)) throw error;
    throw misconfigured([{ setting: error.setting, problem: error.message }]);
  }
}
