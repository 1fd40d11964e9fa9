/// <reference types="vite/client" />
// TEST ONLY. Valid answers of each protocol and format, made once by the test wallet for real requests
// of the service, and the service's inner checks they go through: an Annex C mdoc and an OpenID4VP mdoc
// (the DeviceResponse and its SessionTranscript, for verifyDeviceResponse), an OpenID4VP SD-JWT VC (the
// presentation and its binding, for verifySdJwtVc). Each comes with a second answer to swap parts from:
// another session, another credential (another device key), another document signer.
import rootPem from "../../wallet/test-iaca.pem?raw";
import rootKey from "../../wallet/test-iaca-key.json?raw";
import { CipherSuite, Aes128Gcm, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { CompactEncrypt, importJWK } from "jose";
import { createDigitalIdRequest, parseTrustAnchors, verifyDigitalIdResponse } from "../../../src/digital-id";
import { decideAge, type DigitalIdOutcome } from "../../../src/digital-id/age-outcome";
import { verifyDeviceResponse } from "../../../src/digital-id/mdoc-document";
import { verifySdJwtVc } from "../../../src/digital-id/sd-jwt-vc";
import { annexCTranscript, ecJwkThumbprint, openId4VpTranscript } from "../../../src/digital-id/transcripts";
import { EU_AGE, MDL, documentSigner, issueMdoc, issueSdJwtVc, testRoot, type Mdoc, type SdJwtVc } from "../../wallet";
import { deviceResponse } from "../../wallet/mdoc";
import { presentSdJwtVc } from "../../wallet/sd-jwt-vc";
import { base64url, encode } from "../../wallet/cbor";

export const ORIGIN = "https://age.example.test";
export const AGE = 18;

export const anchors = () => parseTrustAnchors(rootPem);
export const root = () => testRoot(rootPem, JSON.parse(rootKey));

type Pending = {
  ageRequired: number;
  mdoc: { encryptionInfo: string; privateKey: JsonWebKey & { x: string; y: string } };
  openId4Vp: { nonce: string; privateKey: JsonWebKey & { kid: string; x: string; y: string } };
};

export type Session = { pending: Pending; annexC: unknown; openId4Vp: unknown };

export async function newSession(): Promise<Session> {
  const { pending } = await createDigitalIdRequest({ ageRequired: AGE, appOrigin: ORIGIN, now: new Date() });
  return { pending: JSON.parse(JSON.stringify(pending)) as Pending, annexC: null, openId4Vp: null };
}

export const annexCTranscriptOf = (session: Session) => annexCTranscript(session.pending.mdoc.encryptionInfo, ORIGIN);
export const openId4VpTranscriptOf = async (session: Session) =>
  openId4VpTranscript(ORIGIN, session.pending.openId4Vp.nonce, await ecJwkThumbprint(session.pending.openId4Vp.privateKey));

/** One mdoc answer: the DeviceResponse bytes, for the transcript of its session and protocol. */
export type MdocAnswer = { bytes: Uint8Array<ArrayBuffer>; transcript: unknown; onlyDocType?: string };

export const presentMdoc = async (mdoc: Mdoc, transcript: unknown, onlyDocType?: string): Promise<MdocAnswer> => ({
  // One element: dropping it must leave nothing that decides (a second one could be left out legitimately).
  bytes: await deviceResponse(mdoc, transcript, { disclose: ["age_over_18"] }),
  transcript,
  onlyDocType,
});

export const issueMdl = async (signer?: Awaited<ReturnType<typeof documentSigner>>) =>
  issueMdoc({
    kind: MDL,
    signer: signer ?? (await documentSigner(await root())),
    ages: { 18: true, 21: true },
    otherElements: { family_name: "Doe" },
  });
export const issueEuAge = async () => issueMdoc({ kind: EU_AGE, signer: await documentSigner(await root()), ages: { 18: true, 21: true } });

/** The service's inner check of an mdoc answer, then the outcome rule. */
export async function judgeMdoc(bytes: Uint8Array, answer: MdocAnswer, now: Date, trust = anchors()): Promise<DigitalIdOutcome> {
  const ages = await verifyDeviceResponse(bytes, answer.transcript as never, trust, now, answer.onlyDocType);
  return decideAge(ages, AGE);
}

export type SdJwtAnswer = { presentation: string; binding: { nonce: string; audience: string } };

export async function presentSdJwt(credential: SdJwtVc, session: Session, options: { disclose?: string[] } = {}): Promise<SdJwtAnswer> {
  const binding = { nonce: session.pending.openId4Vp.nonce, audience: `origin:${ORIGIN}` };
  const presentation = await presentSdJwtVc(credential, {
    disclose: options.disclose ?? ["18", "21"],
    nonce: binding.nonce,
    audience: binding.audience,
  });
  return { presentation, binding };
}

export const issueSdJwt = async () =>
  issueSdJwtVc({ signer: await documentSigner(await root(), { extendedKeyUsage: undefined }), ages: { 18: true, 21: true } });

export async function judgeSdJwt(presentation: string, answer: SdJwtAnswer, now: Date, trust = anchors()): Promise<DigitalIdOutcome> {
  const ages = await verifySdJwtVc(presentation, answer.binding, trust, now);
  return decideAge(ages, AGE);
}

/** Seals DeviceResponse bytes to the session's Annex C key, as an attacker who re-seals a changed answer does. */
export async function sealAnnexC(
  session: Session,
  deviceResponseBytes: Uint8Array,
): Promise<{ protocol: string; data: { response: string } }> {
  const { encryptionInfo, privateKey } = session.pending.mdoc;
  const point = new Uint8Array([4, ...fromB64u(privateKey.x), ...fromB64u(privateKey.y)]);
  const transcript = await annexCTranscriptOf(session);
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
  const recipientPublicKey = await suite.kem.importKey("raw", point.buffer, true);
  const sealed = await suite.seal({ recipientPublicKey, info: encode(transcript).buffer }, deviceResponseBytes);
  void encryptionInfo;
  const data = encode([
    "dcapi",
    new Map<string, unknown>([
      ["enc", new Uint8Array(sealed.enc)],
      ["cipherText", new Uint8Array(sealed.ct)],
    ]),
  ]);
  return { protocol: "org-iso-mdoc", data: { response: base64url(data) } };
}

/** Encrypts a `vp_token` to the session's OpenID4VP key (`dc_api.jwt`). */
export async function sealOpenId4Vp(session: Session, vpToken: unknown): Promise<{ protocol: string; data: { response: string } }> {
  const { privateKey } = session.pending.openId4Vp;
  const publicJwk = { kty: "EC", crv: "P-256", x: privateKey.x, y: privateKey.y, kid: privateKey.kid };
  const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ vp_token: vpToken })))
    .setProtectedHeader({ alg: "ECDH-ES", enc: "A128GCM", kid: privateKey.kid })
    .encrypt(await importJWK({ ...publicJwk, alg: "ECDH-ES" }, "ECDH-ES"));
  return { protocol: "openid4vp-v1-unsigned", data: { response: jwe } };
}

/** The full path the route takes: the sealed answer against the session's pending request. */
export const judgeSealed = (session: Session, response: { protocol: string; data: unknown }, now: Date, trust = anchors()) =>
  verifyDigitalIdResponse(response, { pending: session.pending, ageRequired: AGE, appOrigin: ORIGIN, trustAnchors: trust, now });

export const fromB64u = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4)), (c) => c.charCodeAt(0));
export { base64url };
