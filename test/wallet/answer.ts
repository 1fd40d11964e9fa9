// TEST ONLY. Answers a `digital.requests` array exactly as a wallet behind the Digital Credentials API
// does: for `org-iso-mdoc` (ISO/IEC TS 18013-7 Annex C) it reads the DeviceRequest and EncryptionInfo,
// device-signs the `dcapi` SessionTranscript for the origin the browser reports and HPKE-seals the
// DeviceResponse; for `openid4vp-v1-unsigned` it reads the DCQL query, presents the mdoc (OpenID4VP DC API
// handover transcript) or the SD-JWT VC (key-binding JWT to `origin:<origin>`) and encrypts the response
// as a `dc_api.jwt` JWE to the request's key. The options are the knobs that make a wrong answer.
import { CipherSuite, Aes128Gcm, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { CompactEncrypt, calculateJwkThumbprint, importJWK, type JWK } from "jose";
import { base64url, decode, encode, fromBase64url, sha256 } from "./cbor";
import { deviceResponse, elementsFor, type Mdoc, type PresentOptions } from "./mdoc";
import { presentSdJwtVc, type SdJwtVc } from "./sd-jwt-vc";

export type DigitalRequest = { protocol: string; data: Record<string, unknown> };
export type DigitalResponse = { protocol: string; data: Record<string, unknown> };

export type AnswerOptions = {
  /** The origin the browser reports for the calling page. */
  origin: string;
  /** Which offered protocol to answer; the first one the credential fits by default. */
  protocol?: "org-iso-mdoc" | "openid4vp-v1-unsigned";
  /** mdoc element identifiers, or SD-JWT `age_equal_or_over` names, to disclose instead of those asked. */
  disclose?: string[];
  tamper?: PresentOptions["tamper"];
  deviceSigningKey?: CryptoKey;
  /** mdoc: the signed DeviceAuthenticationBytes in the device signature's payload slot (see PresentOptions). */
  embedDevicePayload?: boolean;
  /** mdoc: the same document this many times in the DeviceResponse. */
  copies?: number;
  /**
   * mdoc: device-sign the transcript of this origin while sealing the answer for `origin` (an attacker
   * who captured an answer made for another verifier and re-seals it to this request's key).
   */
  deviceSignedForOrigin?: string;
  keyBinding?: { nonce?: string; audience?: string; key?: CryptoKey; sdHash?: string; issuedAt?: number };
  /** SD-JWT VC: disclose a forged value for this age (see presentSdJwtVc). */
  forgeDisclosure?: { name: string; value: boolean };
};

const isMdoc = (credential: Mdoc | SdJwtVc): credential is Mdoc => "docType" in credential;

function pick(requests: DigitalRequest[], credential: Mdoc | SdJwtVc, protocol?: string): DigitalRequest {
  const wanted = protocol ?? (isMdoc(credential) ? "org-iso-mdoc" : "openid4vp-v1-unsigned");
  const request = requests.find((r) => r.protocol === wanted) ?? requests.find((r) => r.protocol === "openid4vp-v1-unsigned");
  if (!request) throw new Error(`the request offers no protocol this wallet can answer (${wanted})`);
  return request;
}

async function answerAnnexC(request: DigitalRequest, mdoc: Mdoc, options: AnswerOptions): Promise<DigitalResponse> {
  const { deviceRequest, encryptionInfo } = request.data as { deviceRequest: string; encryptionInfo: string };
  const docRequests = (decode(fromBase64url(deviceRequest)) as Map<string, unknown>).get("docRequests") as Map<string, unknown>[];
  const requested = docRequests
    .map((docRequest) => decode((docRequest.get("itemsRequest") as { value: Uint8Array }).value) as Map<string, unknown>)
    .filter((items) => items.get("docType") === mdoc.docType)
    .flatMap((items) => [...((items.get("nameSpaces") as Map<string, Map<string, boolean>>).get(mdoc.namespace) ?? new Map()).keys()]);
  const signedTranscript = [null, null, ["dcapi", await sha256(encode([encryptionInfo, options.deviceSignedForOrigin ?? options.origin]))]];
  const response = await deviceResponse(mdoc, signedTranscript, {
    disclose: options.disclose ?? elementsFor(mdoc, requested),
    tamper: options.tamper,
    deviceSigningKey: options.deviceSigningKey,
    embedDevicePayload: options.embedDevicePayload,
    copies: options.copies,
  });
  return sealAnnexC(request, response, options.origin);
}

/** HPKE-seals any bytes as the Annex C answer to `request` for `origin`: also the way to send garbage that opens. */
export async function sealAnnexC(request: DigitalRequest, response: Uint8Array<ArrayBuffer>, origin: string): Promise<DigitalResponse> {
  const { encryptionInfo } = request.data as { encryptionInfo: string };
  const [, parameters] = decode(fromBase64url(encryptionInfo)) as [string, Map<string, unknown>];
  const recipient = parameters.get("recipientPublicKey") as Map<number, Uint8Array>;
  const point = new Uint8Array([4, ...recipient.get(-2)!, ...recipient.get(-3)!]);
  const transcript = [null, null, ["dcapi", await sha256(encode([encryptionInfo, origin]))]];
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
  const recipientPublicKey = await suite.kem.importKey("raw", point.buffer, true);
  const sealed = await suite.seal({ recipientPublicKey, info: encode(transcript).buffer }, response);
  const data = encode([
    "dcapi",
    new Map<string, unknown>([
      ["enc", new Uint8Array(sealed.enc)],
      ["cipherText", new Uint8Array(sealed.ct)],
    ]),
  ]);
  return { protocol: "org-iso-mdoc", data: { response: base64url(data) } };
}

type DcqlCredential = { id: string; format: string; meta: { doctype_value?: string; vct_values?: string[] }; claims: { path: string[] }[] };

async function answerOpenId4Vp(request: DigitalRequest, credential: Mdoc | SdJwtVc, options: AnswerOptions): Promise<DigitalResponse> {
  const data = request.data as { nonce: string; dcql_query: { credentials: DcqlCredential[] }; client_metadata: { jwks: { keys: JWK[] } } };
  const encryptionKey = data.client_metadata.jwks.keys[0]!;
  let id: string;
  let presentation: string;
  if (isMdoc(credential)) {
    const query = data.dcql_query.credentials.find((c) => c.format === "mso_mdoc" && c.meta.doctype_value === credential.docType);
    if (!query) throw new Error("the DCQL query does not ask for this doctype");
    id = query.id;
    const requested = query.claims.filter((claim) => claim.path[0] === credential.namespace).map((claim) => claim.path[1]!);
    const thumbprint = fromBase64url(await calculateJwkThumbprint(encryptionKey, "sha256"));
    const transcript = [
      null,
      null,
      ["OpenID4VPDCAPIHandover", await sha256(encode([options.deviceSignedForOrigin ?? options.origin, data.nonce, thumbprint]))],
    ];
    presentation = base64url(
      await deviceResponse(credential, transcript, {
        disclose: options.disclose ?? elementsFor(credential, requested),
        tamper: options.tamper,
        deviceSigningKey: options.deviceSigningKey,
        embedDevicePayload: options.embedDevicePayload,
        copies: options.copies,
      }),
    );
  } else {
    const query = data.dcql_query.credentials.find((c) => c.format === "dc+sd-jwt");
    if (!query) throw new Error("the DCQL query does not ask for an SD-JWT VC");
    id = query.id;
    presentation = await presentSdJwtVc(credential, {
      disclose: options.disclose ?? query.claims.map((claim) => claim.path[1]!),
      nonce: options.keyBinding?.nonce ?? data.nonce,
      audience: options.keyBinding?.audience ?? `origin:${options.origin}`,
      keyBindingKey: options.keyBinding?.key,
      sdHash: options.keyBinding?.sdHash,
      issuedAt: options.keyBinding?.issuedAt,
      forge: options.forgeDisclosure,
    });
  }
  return sealOpenId4Vp(request, { vp_token: { [id]: [presentation] } });
}

/**
 * Encrypts any response object as a `dc_api.jwt` JWE to the request's key, as a wallet does: also the
 * way to send a well-encrypted answer whose content is garbage. `enc` other than A128GCM, which the
 * request advertises, makes an answer the service must refuse.
 */
export async function sealOpenId4Vp(
  request: DigitalRequest,
  response: unknown,
  enc: "A128GCM" | "A256GCM" = "A128GCM",
): Promise<DigitalResponse> {
  const encryptionKey = (request.data as { client_metadata: { jwks: { keys: JWK[] } } }).client_metadata.jwks.keys[0]!;
  const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(response)))
    .setProtectedHeader({ alg: "ECDH-ES", enc, kid: encryptionKey.kid })
    .encrypt(await importJWK({ ...encryptionKey, alg: "ECDH-ES" }, "ECDH-ES"));
  return { protocol: "openid4vp-v1-unsigned", data: { response: jwe } };
}

/** What `navigator.credentials.get({digital: {requests}})` resolves to, as `{protocol, data}`. */
export async function answer(requests: DigitalRequest[], credential: Mdoc | SdJwtVc, options: AnswerOptions): Promise<DigitalResponse> {
  const request = pick(requests, credential, options.protocol);
  if (request.protocol === "org-iso-mdoc") {
    if (!isMdoc(credential)) throw new Error("an SD-JWT VC cannot answer org-iso-mdoc");
    return answerAnnexC(request, credential, options);
  }
  return answerOpenId4Vp(request, credential, options);
}
