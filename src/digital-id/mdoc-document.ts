// One document of an mdoc DeviceResponse, checked as ISO/IEC 18013-5 requires: issuer data
// authentication (§9.1.2: the MSO's COSE_Sign1 by a certificate chained to a trust anchor, the MSO's
// doctype and validity window, every disclosed element's digest) and mdoc authentication (§9.1.3: the
// device signature, by the MSO's device key, over DeviceAuthentication for this request's transcript).
// Only the age statements of the doctype's own namespace come out; no other value leaves this file.
import { Tagged, encodeCbor, type Cbor } from "./cbor";
import { asArray, asDate, asInteger, asMap, asText, embeddedBytes, parse, type CborMap } from "./cbor-read";
import { verifyChain } from "./certificate-chain";
import { importCoseKey, readSign1, verifyAttachedSign1, verifyDetachedSign1, x5chain } from "./cose";
import { AGE_NAMESPACES, mdocElementAge } from "./credentials";
import { importSpki } from "./ecdsa";
import { invalid } from "./failures";
import { cborStatusReference } from "./status-reference";
import { ownEntry } from "./json";
import type { AgeClaim } from "./age-outcome";
import type { Certificate } from "./x509";

const DIGEST_ALGORITHMS: Record<string, string> = { "SHA-256": "SHA-256", "SHA-384": "SHA-384", "SHA-512": "SHA-512" };
/** How far an MSO's `signed` may stand ahead of now: the issuer's clock and ours may differ a little. */
const SIGNED_SKEW_MS = 5 * 60_000;
/** Issuer-signed items one document may disclose: the age asked for and its neighbours are a handful. */
export const MAX_ISSUER_SIGNED_ITEMS = 16;

export type IssuerVerified = { docType: string; deviceKey: CryptoKey; ages: AgeClaim[] };

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

async function readMso(issuerAuth: Cbor | undefined, anchors: Certificate[], now: Date): Promise<CborMap> {
  const sign1 = readSign1(issuerAuth, "the issuer signature (issuerAuth)");
  const signer = await verifyChain(x5chain(sign1, "the issuer signature"), anchors, now, "mdoc");
  if (signer.curve !== sign1.algorithm.curve) throw invalid("the issuer signature's algorithm does not match its certificate's key.");
  if (!sign1.payload) throw invalid("the issuer signature has no mobile security object.");
  if (!(await verifyAttachedSign1(sign1, await importSpki(signer.spki, signer.curve))))
    throw invalid("the issuer signature over the mobile security object is wrong.");
  const msoBytes = embeddedBytes(parse(sign1.payload, "mobile security object"), "the mobile security object");
  return asMap(parse(msoBytes, "mobile security object"), "the mobile security object");
}

function checkValidity(mso: CborMap, now: Date): void {
  const validity = asMap(mso.get("validityInfo"), "the MSO's validityInfo");
  if (asDate(validity.get("signed"), "signed").getTime() > now.getTime() + SIGNED_SKEW_MS)
    throw invalid("the mobile security object is signed in the future (MSO signed).");
  const validFrom = asDate(validity.get("validFrom"), "validFrom");
  const validUntil = asDate(validity.get("validUntil"), "validUntil");
  if (now < validFrom) throw invalid("the credential is not valid yet (MSO validFrom).");
  if (now > validUntil) throw invalid("the credential has expired (MSO validUntil).");
}

/**
 * Issuer data authentication; returns the device key and the age statements of the doctype's own
 * namespace (none for a doctype this service does not ask for: the caller refuses those).
 */
export async function verifyIssuerSigned(document: CborMap, anchors: Certificate[], now: Date): Promise<IssuerVerified> {
  const docType = asText(document.get("docType"), "docType");
  const ageNamespace = ownEntry(AGE_NAMESPACES, docType);
  const issuerSigned = asMap(document.get("issuerSigned"), "issuerSigned");
  const mso = await readMso(issuerSigned.get("issuerAuth"), anchors, now);
  if (asText(mso.get("docType"), "the MSO's docType") !== docType)
    throw invalid("the document's doctype differs from the signed one (MSO docType).");
  checkValidity(mso, now);
  const status = cborStatusReference(mso.get("status"));
  const digestAlgorithm = ownEntry(DIGEST_ALGORITHMS, asText(mso.get("digestAlgorithm"), "digestAlgorithm"));
  if (!digestAlgorithm) throw invalid("the MSO's digest algorithm is not accepted.");
  const valueDigests = asMap(mso.get("valueDigests"), "valueDigests");

  const ages: AgeClaim[] = [];
  const nameSpaces = issuerSigned.has("nameSpaces") ? asMap(issuerSigned.get("nameSpaces"), "issuer nameSpaces") : new Map();
  for (const [namespace, items] of nameSpaces) {
    const digests = asMap(valueDigests.get(namespace), `the digests of namespace ${String(namespace).slice(0, 60)}`);
    // Each signed item once: a repeated one states nothing new and only adds work.
    const disclosed = new Set<number>();
    for (const item of asArray(items, "an issuer-signed namespace")) {
      const itemBytes = embeddedBytes(item, "an issuer-signed item");
      const signedItem = asMap(parse(itemBytes, "issuer-signed item"), "an issuer-signed item");
      const digestId = asInteger(signedItem.get("digestID"), "digestID");
      if (disclosed.has(digestId)) throw invalid("an issuer-signed item is disclosed twice.");
      disclosed.add(digestId);
      const expected = digests.get(digestId);
      const actual = new Uint8Array(await crypto.subtle.digest(digestAlgorithm, encodeCbor(new Tagged(24, itemBytes))));
      if (!(expected instanceof Uint8Array) || !constantTimeEqual(actual, expected))
        throw invalid("a disclosed element does not match its signed digest.");
      const age = mdocElementAge(asText(signedItem.get("elementIdentifier"), "elementIdentifier"));
      const value = signedItem.get("elementValue");
      if (namespace === ageNamespace && age !== null) {
        if (typeof value !== "boolean") throw invalid("an age element is not a boolean.");
        ages.push({ age, over: value, status });
      }
    }
  }
  const deviceKeyInfo = asMap(mso.get("deviceKeyInfo"), "deviceKeyInfo");
  return { docType, deviceKey: await importCoseKey(deviceKeyInfo.get("deviceKey"), "the device key"), ages };
}

/** mdoc authentication: the device signature over DeviceAuthentication for `sessionTranscript`. */
export async function verifyDeviceSigned(document: CborMap, verified: IssuerVerified, sessionTranscript: Cbor): Promise<void> {
  const deviceSigned = asMap(document.get("deviceSigned"), "deviceSigned");
  const deviceNameSpacesBytes = embeddedBytes(deviceSigned.get("nameSpaces"), "the device nameSpaces");
  const deviceAuth = asMap(deviceSigned.get("deviceAuth"), "deviceAuth");
  if (!deviceAuth.has("deviceSignature")) throw invalid("the document carries no device signature (a device MAC cannot be checked here).");
  const signature = readSign1(deviceAuth.get("deviceSignature"), "the device signature");
  const deviceAuthentication = ["DeviceAuthentication", sessionTranscript, verified.docType, new Tagged(24, deviceNameSpacesBytes)];
  const deviceAuthenticationBytes = encodeCbor(new Tagged(24, encodeCbor(deviceAuthentication)));
  if (!(await verifyDetachedSign1(signature, verified.deviceKey, deviceAuthenticationBytes, "the device signature"))) {
    throw invalid("the device signature does not cover this request (wrong key, nonce, origin or request).");
  }
}

/**
 * The work an answer may ask for, bounded before any signature or digest is computed: one document per
 * doctype asked (each of a requested doctype, the one its credential query named for OpenID4VP), and at
 * most MAX_ISSUER_SIGNED_ITEMS items in each (docs/digital-id.md, "Work per answer").
 */
function checkWork(documents: CborMap[], onlyDocType: string | undefined): void {
  const docTypes = new Set<string>();
  for (const document of documents) {
    const docType = asText(document.get("docType"), "docType");
    if (!ownEntry(AGE_NAMESPACES, docType)) throw invalid("the document is not of a requested doctype.");
    if (onlyDocType !== undefined && docType !== onlyDocType)
      throw invalid("the document is not of the doctype its credential query asked for.");
    if (docTypes.has(docType)) throw invalid("the DeviceResponse holds more than one document of a doctype.");
    docTypes.add(docType);
    const issuerSigned = asMap(document.get("issuerSigned"), "issuerSigned");
    const nameSpaces = issuerSigned.has("nameSpaces") ? asMap(issuerSigned.get("nameSpaces"), "issuer nameSpaces") : new Map();
    let items = 0;
    for (const namespaceItems of nameSpaces.values()) items += asArray(namespaceItems, "an issuer-signed namespace").length;
    if (items > MAX_ISSUER_SIGNED_ITEMS) throw invalid(`a document discloses more than ${MAX_ISSUER_SIGNED_ITEMS} issuer-signed items.`);
  }
}

/**
 * A DeviceResponse (18013-5 §8.3.2.1.2.2): every document must verify; their age statements, together.
 * `onlyDocType` narrows the accepted doctypes to the one an OpenID4VP credential query asked for.
 */
export async function verifyDeviceResponse(
  bytes: Uint8Array,
  sessionTranscript: Cbor,
  anchors: Certificate[],
  now: Date,
  onlyDocType?: string,
): Promise<AgeClaim[]> {
  const response = asMap(parse(bytes, "DeviceResponse"), "the DeviceResponse");
  if (!asText(response.get("version"), "the DeviceResponse version").startsWith("1."))
    throw invalid("the DeviceResponse version is not supported.");
  if (asInteger(response.get("status"), "the DeviceResponse status") !== 0) throw invalid("the wallet reported an error status.");
  const documents = asArray(response.get("documents") ?? [], "documents").map((item) => asMap(item, "a document"));
  if (documents.length === 0) throw invalid("the DeviceResponse holds no document.");
  checkWork(documents, onlyDocType);
  const ages: AgeClaim[] = [];
  for (const document of documents) {
    const verified = await verifyIssuerSigned(document, anchors, now);
    await verifyDeviceSigned(document, verified, sessionTranscript);
    ages.push(...verified.ages);
  }
  return ages;
}
