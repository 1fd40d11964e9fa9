// Trust in an issuer (ISO/IEC 18013-5 §9.3.3, RFC 5280 §6 reduced to what issuer chains use): the
// signer's certificate, through any certificates the credential carries, must be signed by a configured
// trust anchor (DIGITAL_ID_TRUST_ANCHORS: IACA roots for mdocs, issuer roots for SD-JWT VC `x5c`), every
// certificate valid now, every issuer a CA allowed to sign certificates within its pathLenConstraint,
// the signer allowed to sign, not a CA, and made for the role it plays (docs/digital-id.md, "Who may
// sign a credential").
import { derSignatureToRaw, importSpki, verifyRaw } from "./ecdsa";
import { invalid } from "./failures";
import { parseCertificate, type Certificate } from "./x509";
import { fromBase64, sameBytes } from "../lib/encoding";

/** Longest chain a credential may carry (signer plus intermediates); IACA chains are one deep. */
const MAX_CHAIN = 4;

/** What the signer signs: an mdoc's MSO, an SD-JWT VC's issuer JWT, or a status list token. */
export type SignerProfile = "mdoc" | "sd-jwt-vc" | "status-list";
/** ISO/IEC 18013-5 Annex B: id-mdl-kp-mdlDS, the extended key usage of an mdoc document signer. */
const MDOC_DOCUMENT_SIGNER = "1.0.18013.5.1.2";
/**
 * Purposes of another role, which sign no credential: mdoc reader authentication, OCSP signing, and the
 * PKIX purposes of certificates a CA hands to people and servers (TLS server and client authentication,
 * code signing, e-mail protection, time stamping; RFC 5280 §4.2.1.12). Without these, a citizen's eID
 * authentication certificate, or a website's, under the root that also certifies the PID issuer would
 * sign an SD-JWT VC of any age with a key its holder controls (docs/digital-id.md, "Who may sign a credential").
 */
const OTHER_ROLES = new Set([
  "1.0.18013.5.1.6",
  "1.3.6.1.5.5.7.3.9",
  "1.3.6.1.5.5.7.3.1",
  "1.3.6.1.5.5.7.3.2",
  "1.3.6.1.5.5.7.3.3",
  "1.3.6.1.5.5.7.3.4",
  "1.3.6.1.5.5.7.3.8",
]);

/** One or more concatenated PEM CERTIFICATE blocks; throws on an empty setting or a certificate it cannot use. */
export function parseTrustAnchors(pem: string): Certificate[] {
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  if (blocks.length === 0) throw new Error("DIGITAL_ID_TRUST_ANCHORS holds no PEM CERTIFICATE block");
  return blocks.map((block, index) => {
    try {
      return parseCertificate(fromBase64(block[1]!.replace(/\s+/g, "")));
    } catch (error) {
      throw new Error(`DIGITAL_ID_TRUST_ANCHORS certificate ${index + 1} cannot be used: ${(error as Error).message}`);
    }
  });
}

function checkValidity(certificate: Certificate, now: Date, role: string): void {
  if (certificate.unknownCritical.length > 0)
    throw invalid(`the ${role} certificate has a critical extension this service does not understand.`);
  if (now < certificate.notBefore) throw invalid(`the ${role} certificate is not valid yet.`);
  if (now > certificate.notAfter) throw invalid(`the ${role} certificate has expired.`);
}

async function signedBy(certificate: Certificate, issuer: Certificate): Promise<boolean> {
  if (!sameBytes(certificate.issuer, issuer.subject)) return false;
  try {
    const key = await importSpki(issuer.spki, issuer.curve);
    return await verifyRaw(key, certificate.signatureHash, derSignatureToRaw(certificate.signature, issuer.curve), certificate.tbs);
  } catch {
    return false;
  }
}

/** A CA on the path, with `below` CA certificates between it and the signer (RFC 5280 §6.1.4 (l), (m)). */
function checkIssuer(issuer: Certificate, now: Date, below: number): void {
  checkValidity(issuer, now, "issuing CA");
  if (!issuer.isCa) throw invalid("a certificate in the issuer's chain is signed by a certificate that is not a CA.");
  if (issuer.keyUsage && !issuer.keyUsage.keyCertSign)
    throw invalid("a certificate in the issuer's chain is signed by a key not allowed to sign certificates.");
  if (issuer.pathLength !== null && below > issuer.pathLength)
    throw invalid("the issuer's certificate chain is longer than a CA's pathLenConstraint allows.");
}

/**
 * The signer's role: an end-entity certificate (not a CA), allowed to sign, with no purpose of another
 * role; an mdoc's MSO only by a document signer. An SD-JWT VC issuer certificate needs no particular
 * purpose (none is standardised), and issuers that sign both formats carry the document signer's; nor
 * does a status list's signer (the Token Status List names none).
 */
function checkSigner(signer: Certificate, now: Date, profile: SignerProfile): void {
  checkValidity(signer, now, "issuer's signing");
  if (signer.keyUsage && !signer.keyUsage.digitalSignature) throw invalid("the issuer's signing certificate is not allowed to sign.");
  if (signer.isCa) throw invalid("the issuer's signing certificate is a CA certificate, not a signer's.");
  const purposes = signer.extendedKeyUsage;
  if (purposes?.some((purpose) => OTHER_ROLES.has(purpose)))
    throw invalid("the issuer's signing certificate is made for another role (extended key usage).");
  if (profile === "mdoc" && !purposes?.includes(MDOC_DOCUMENT_SIGNER))
    throw invalid("the issuer's signing certificate is not an mdoc document signer (extended key usage).");
}

/**
 * Whether a configured anchor issued `certificate`, with `below` CA certificates under it. Every anchor
 * that signed it is tried: an operator may list an expired root before its renewal with the same key.
 * When some signed it but none holds, the first one's refusal is the answer.
 */
async function issuedByAnchor(certificate: Certificate, anchors: Certificate[], now: Date, below: number): Promise<boolean> {
  let refusal: unknown = null;
  for (const anchor of anchors) {
    if (!(await signedBy(certificate, anchor))) continue;
    try {
      checkIssuer(anchor, now, below);
      return true;
    } catch (error) {
      refusal ??= error;
    }
  }
  if (refusal !== null) throw refusal;
  return false;
}

/**
 * Checks the chain (signer first, DER certificates as the credential carries them) against the anchors
 * at `now`; returns the signer's certificate, whose key then verifies the credential's signature.
 */
export async function verifyChain(
  chain: Uint8Array<ArrayBuffer>[],
  anchors: Certificate[],
  now: Date,
  profile: SignerProfile,
): Promise<Certificate> {
  if (chain.length === 0 || chain.length > MAX_CHAIN) throw invalid("the issuer's certificate chain is missing or too long.");
  let certificates: Certificate[];
  try {
    certificates = chain.map(parseCertificate);
  } catch {
    throw invalid("a certificate in the issuer's chain could not be read.");
  }
  const signer = certificates[0]!;
  checkSigner(signer, now, profile);

  // certificates[index] has index - 1 CA certificates between it and the signer; its issuer has index.
  for (let index = 0; index < certificates.length; index++) {
    const certificate = certificates[index]!;
    if (index > 0) checkValidity(certificate, now, "issuer's intermediate");
    // An operator may configure the signer itself (or an intermediate) as an anchor: it is trusted as is.
    if (anchors.some((anchor) => sameBytes(anchor.der, certificate.der))) return signer;
    if (await issuedByAnchor(certificate, anchors, now, index)) return signer;
    const next = certificates[index + 1];
    if (!next) break;
    if (!(await signedBy(certificate, next)))
      throw invalid("the issuer's certificate chain is broken (a certificate is not signed by the next).");
    checkIssuer(next, now, index);
  }
  throw invalid("the issuer's certificate does not chain to a trusted issuer.");
}
