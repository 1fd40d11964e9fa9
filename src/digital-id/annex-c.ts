// The `org-iso-mdoc` protocol of the Digital Credentials API, ISO/IEC TS 18013-7 Annex C: the request is
// a DeviceRequest (one DocRequest per accepted doctype, asking only for `age_over_NN`) and an
// EncryptionInfo (a nonce and this request's HPKE recipient key); the answer is the DeviceResponse,
// HPKE-sealed to that key with the `dcapi` SessionTranscript as info, which binds the page's origin and
// this very EncryptionInfo. An answer to an earlier request or from another origin does not open.
import * as z from "../lib/lazy-zod";
import { fromBase64Url, toBase64Url } from "../lib/encoding";
import { readBase64Url } from "./base64";
import { embedded, encodeCbor } from "./cbor";
import { asArray, asBytes, asMap, asText, parse } from "./cbor-read";
import { AGE_NAMESPACES, mdocAgeElement } from "./credentials";
import { invalid } from "./failures";
import { hpkeOpen } from "./hpke";
import { newEncryptionKey } from "./keys";
import { verifyDeviceResponse } from "./mdoc-document";
import { annexCTranscript } from "./transcripts";
import type { AgeClaim } from "./age-outcome";
import type { PendingDigitalIdRequest } from "./pending";
import type { Certificate } from "./x509";

export const ANNEX_C_PROTOCOL = "org-iso-mdoc";

export const AnnexCResponse = z.object({
  response: z.string().check(z.minLength(1), z.maxLength(60_000), z.regex(/^[A-Za-z0-9_-]+$/)),
});

/** The DeviceRequest: `age_over_NN` in each doctype's namespace, not to be retained, nothing else. */
export function deviceRequest(ageRequired: number): Uint8Array<ArrayBuffer> {
  const element = mdocAgeElement(ageRequired);
  const docRequests = Object.entries(AGE_NAMESPACES).map(([docType, namespace]) => ({
    itemsRequest: embedded({ docType, nameSpaces: { [namespace]: { [element]: false } } }),
  }));
  return encodeCbor({ version: "1.0", docRequests });
}

export async function createAnnexCRequest(ageRequired: number) {
  const privateKey = await newEncryptionKey();
  const recipientPublicKey = new Map<number, number | Uint8Array>([
    [1, 2],
    [-1, 1],
    [-2, fromBase64Url(privateKey.x)],
    [-3, fromBase64Url(privateKey.y)],
  ]);
  const nonce = crypto.getRandomValues(new Uint8Array(16));
  const encryptionInfo = toBase64Url(encodeCbor(["dcapi", { nonce, recipientPublicKey }]));
  return {
    request: { protocol: ANNEX_C_PROTOCOL, data: { deviceRequest: toBase64Url(deviceRequest(ageRequired)), encryptionInfo } },
    pending: { encryptionInfo, privateKey },
  };
}

/** Opens the sealed DeviceResponse and verifies it against this request's transcript. */
export async function verifyAnnexCResponse(
  data: z.infer<typeof AnnexCResponse>,
  pending: NonNullable<PendingDigitalIdRequest["mdoc"]>,
  origin: string,
  anchors: Certificate[],
  now: Date,
): Promise<AgeClaim[]> {
  const sealed = asArray(parse(readBase64Url(data.response, "the encrypted response"), "encrypted response"), "the encrypted response");
  if (sealed.length !== 2 || asText(sealed[0], "the response type") !== "dcapi")
    throw invalid("the response is not an Annex C `dcapi` response.");
  const parameters = asMap(sealed[1], "the encrypted response parameters");
  const transcript = await annexCTranscript(pending.encryptionInfo, origin);
  const enc = asBytes(parameters.get("enc"), "enc");
  const cipherText = asBytes(parameters.get("cipherText"), "cipherText");
  let deviceResponse: Uint8Array;
  try {
    deviceResponse = await hpkeOpen(pending.privateKey, enc, cipherText, encodeCbor(transcript));
  } catch {
    throw invalid("the response does not open with this request (another origin, an earlier request, or a replay).");
  }
  return verifyDeviceResponse(deviceResponse, transcript, anchors, now);
}
