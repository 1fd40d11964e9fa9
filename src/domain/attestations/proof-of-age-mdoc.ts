// One EU proof-of-age attestation (docs/attestations.md): an ISO/IEC 18013-5 mdoc of doctype and
// namespace eu.europa.ec.av.1 holding one element, age_over_18: true. IssuerSigned = {nameSpaces, issuerAuth}:
// the item with its own random salt and a random digest id, the MSO (18013-5 §9.1.2.4) with the item's
// digest, the wallet's device key and validity times in whole UTC days, signed as COSE_Sign1 (ES256,
// x5chain in the unprotected header) by the document signer. Nothing of it is kept: the caller returns
// it and forgets it.
import { Tagged, embedded, encodeCbor } from "../../digital-id/cbor";
import { fromBase64Url, toBase64Url } from "../../lib/encoding";
import { randomBytes } from "../../lib/crypto";
import { DAY_MS, startOfUtcDay } from "../../lib/time";
import type { AttestationSigner } from "./signer";

export const PROOF_OF_AGE_DOCTYPE = "eu.europa.ec.av.1";
export const PROOF_OF_AGE_NAMESPACE = "eu.europa.ec.av.1";
/** How long an attestation lives: it cannot be revoked, so not long (docs/attestations.md). At most 93 days. */
export const ATTESTATION_VALIDITY_DAYS = 90;

/** A device key as a proof's `jwk` header carries it (checked by proofs.ts: P-256). */
export type DeviceJwk = { kty: "EC"; crv: "P-256"; x: string; y: string };

/** `tdate` (RFC 8949 tag 0) of a whole UTC day: no hours, minutes or seconds that could name the moment of issuance. */
const tdate = (ms: number) => new Tagged(0, new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));

async function digest(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** ES256 COSE_Sign1 over an attached payload (RFC 9052 §4.4), the document signer's certificate as x5chain (label 33). */
async function sign1(signer: AttestationSigner, payload: Uint8Array<ArrayBuffer>): Promise<unknown[]> {
  const protectedBytes = encodeCbor(new Map([[1, -7]]));
  const toBeSigned = encodeCbor(["Signature1", protectedBytes, new Uint8Array(0), payload]);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signer.privateKey, toBeSigned));
  return [protectedBytes, new Map([[33, signer.certificate]]), payload, signature];
}

/** The base64url CBOR IssuerSigned of one attestation bound to `deviceKey`, signed today. */
export async function issueProofOfAge(signer: AttestationSigner, deviceKey: DeviceJwk, now: number): Promise<string> {
  // A random digest id as well as a random salt: ids in a fixed sequence would tell attestations of one batch apart from others.
  const digestId = new DataView(randomBytes(4).buffer).getUint32(0) >>> 1;
  const item = encodeCbor(
    new Map<string, unknown>([
      ["digestID", digestId],
      ["random", randomBytes(32)],
      ["elementIdentifier", "age_over_18"],
      ["elementValue", true],
    ]),
  );
  const itemDigest = await digest(encodeCbor(new Tagged(24, item)));
  const signed = startOfUtcDay(now);
  const mso = new Map<string, unknown>([
    ["version", "1.0"],
    ["digestAlgorithm", "SHA-256"],
    ["valueDigests", new Map([[PROOF_OF_AGE_NAMESPACE, new Map([[digestId, itemDigest]])]])],
    [
      "deviceKeyInfo",
      new Map([
        [
          "deviceKey",
          new Map<number, unknown>([
            [1, 2],
            [-1, 1],
            [-2, fromBase64Url(deviceKey.x)],
            [-3, fromBase64Url(deviceKey.y)],
          ]),
        ],
      ]),
    ],
    ["docType", PROOF_OF_AGE_DOCTYPE],
    [
      "validityInfo",
      new Map([
        ["signed", tdate(signed)],
        ["validFrom", tdate(signed)],
        ["validUntil", tdate(signed + ATTESTATION_VALIDITY_DAYS * DAY_MS)],
      ]),
    ],
  ]);
  const issuerAuth = await sign1(signer, encodeCbor(embedded(mso)));
  const issuerSigned = new Map<string, unknown>([
    ["nameSpaces", new Map([[PROOF_OF_AGE_NAMESPACE, [new Tagged(24, item)]]])],
    ["issuerAuth", issuerAuth],
  ]);
  return toBase64Url(encodeCbor(issuerSigned));
}
