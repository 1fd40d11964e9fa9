// WebAuthn checks for attestation-free passkeys (W3C WebAuthn Level 3, §7.1 registration and §7.2
// assertion), over @oslojs/webauthn's parsers: the structures are decoded by the library, and every
// decision (type, challenge, origin, RP id, flags, algorithm, counter, signature) is made here, each
// refusal with its own message. No storage: src/domain/passkeys/passkeys.ts finds the challenge and the key.
import {
  ClientDataType,
  COSEKeyType,
  coseAlgorithmES256,
  coseEllipticCurveP256,
  parseAttestationObject,
  parseAuthenticatorData,
  parseClientDataJSON,
  type AuthenticatorData,
  type ClientData,
} from "@oslojs/webauthn";
import * as z from "../../lib/lazy-zod";
import { ApiError } from "../../errors";
import { fromBase64Url, toBase64Url } from "../../lib/encoding";

const base64url = z.string().check(z.minLength(1), z.maxLength(4096), z.regex(/^[A-Za-z0-9_-]+$/, "must be base64url"));

/** What `PublicKeyCredential.toJSON()` gives after `navigator.credentials.create()`. */
export const RegistrationCredential = z.object({
  id: base64url,
  type: z.literal("public-key"),
  response: z.object({ clientDataJSON: base64url, attestationObject: base64url }),
});
/** What `PublicKeyCredential.toJSON()` gives after `navigator.credentials.get()`. */
export const AssertionCredential = z.object({
  id: base64url,
  type: z.literal("public-key"),
  response: z.object({ clientDataJSON: base64url, authenticatorData: base64url, signature: base64url }),
});
/** What the server hands the page for `navigator.credentials.get()` (PublicKeyCredentialRequestOptionsJSON). */
export const PasskeyRequestOptions = z.object({
  challenge: z.string(),
  rpId: z.string(),
  allowCredentials: z.array(z.object({ type: z.literal("public-key"), id: z.string() })),
  userVerification: z.literal("required"),
  timeout: z.int(),
});
export type RegistrationCredential = z.infer<typeof RegistrationCredential>;
export type AssertionCredential = z.infer<typeof AssertionCredential>;

/** The relying party: its id is APP_URL's host name, the only origin accepted is APP_URL's. */
export type RelyingParty = { id: string; origin: string };

export const relyingParty = (appUrl: string): RelyingParty => {
  const url = new URL(appUrl);
  return { id: url.hostname, origin: url.origin };
};

export const invalidPasskey = (message: string) => new ApiError("PASSKEY_INVALID", { message });

/** Every decoding failure (base64url, CBOR, DER, a key that is not a point) is the client's: 400 PASSKEY_INVALID, never 500. */
function decoded<T>(parse: () => T, what: string): T {
  try {
    return parse();
  } catch {
    throw invalidPasskey(`The passkey's ${what} could not be read.`);
  }
}

async function decodedAsync<T>(parse: () => Promise<T>, what: string): Promise<T> {
  try {
    return await parse();
  } catch {
    throw invalidPasskey(`The passkey's ${what} could not be read.`);
  }
}

/** A P-256 public key (SEC 1 uncompressed) as Web Crypto takes it: a point not on the curve is refused here. */
const importP256 = (sec1: Uint8Array) =>
  decodedAsync(
    () => crypto.subtle.importKey("raw", sec1 as Uint8Array<ArrayBuffer>, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]),
    "public key",
  );

/** The challenge the browser signed, base64url, once the client data parses; checked against storage by the caller. */
export function clientData(clientDataJSON: string): ClientData & { challengeText: string } {
  const data = decoded(() => parseClientDataJSON(fromBase64Url(clientDataJSON)), "client data");
  return { ...data, challengeText: toBase64Url(data.challenge) };
}

function checkClientData(data: ClientData, type: ClientDataType, rp: RelyingParty): void {
  if (data.type !== type) throw invalidPasskey(`The client data is not a ${type === ClientDataType.Create ? "registration" : "sign-in"}.`);
  if (data.origin !== rp.origin) throw invalidPasskey(`The passkey was used on another origin (${data.origin.slice(0, 100)}).`);
  if (data.crossOrigin === true) throw invalidPasskey("The passkey was used from an embedded frame of another origin.");
}

function checkAuthenticatorData(auth: AuthenticatorData, rp: RelyingParty): void {
  if (!auth.verifyRelyingPartyIdHash(rp.id)) throw invalidPasskey("The passkey belongs to another relying party (RP id).");
  if (!auth.userPresent) throw invalidPasskey("The authenticator did not confirm the user's presence.");
  if (!auth.userVerified) throw invalidPasskey("The authenticator did not verify the user (PIN or biometrics required).");
}

export type NewPasskey = { credentialId: string; publicKey: string; algorithm: number; signCount: number };

/**
 * §7.1 steps 5-27 without attestation trust (we ask for `attestation: "none"` and store no device data).
 * The key is imported once here, so a COSE key that is not a point on P-256 is refused at enrolment
 * instead of breaking every later approval and removal.
 */
export async function verifyRegistration(credential: RegistrationCredential, rp: RelyingParty): Promise<NewPasskey> {
  checkClientData(clientData(credential.response.clientDataJSON), ClientDataType.Create, rp);
  const attestation = decoded(() => parseAttestationObject(fromBase64Url(credential.response.attestationObject)), "attestation object");
  const auth = attestation.authenticatorData;
  checkAuthenticatorData(auth, rp);
  if (!auth.credential) throw invalidPasskey("The registration carries no credential.");
  if (toBase64Url(auth.credential.id) !== credential.id) throw invalidPasskey("The credential id does not match the authenticator data.");
  const key = auth.credential.publicKey;
  if (key.type() !== COSEKeyType.EC2 || !key.isAlgorithmDefined() || key.algorithm() !== coseAlgorithmES256) {
    throw invalidPasskey("Only ES256 (P-256) passkeys are accepted.");
  }
  const ec2 = decoded(() => key.ec2(), "public key");
  if (ec2.curve !== coseEllipticCurveP256) throw invalidPasskey("Only ES256 (P-256) passkeys are accepted.");
  const publicKey = sec1Uncompressed(ec2.x, ec2.y);
  await importP256(publicKey);
  return {
    credentialId: credential.id,
    publicKey: toBase64Url(publicKey),
    algorithm: coseAlgorithmES256,
    signCount: auth.signatureCounter,
  };
}

export type StoredKey = { publicKey: string; signCount: number };

/** §7.2 steps 11-21 once the caller has matched the challenge and the credential; returns the new counter. */
export async function verifyAssertion(credential: AssertionCredential, key: StoredKey, rp: RelyingParty): Promise<number> {
  checkClientData(clientData(credential.response.clientDataJSON), ClientDataType.Get, rp);
  const auth = decoded(() => parseAuthenticatorData(fromBase64Url(credential.response.authenticatorData)), "authenticator data");
  checkAuthenticatorData(auth, rp);
  if (!(await signatureValid(credential, key.publicKey))) throw invalidPasskey("The passkey's signature does not verify.");
  // Authenticators that keep no counter send 0 every time; one that does must move it forward, or it
  // may be a clone (§6.1.1).
  if ((auth.signatureCounter !== 0 || key.signCount !== 0) && auth.signatureCounter <= key.signCount) {
    throw invalidPasskey("The passkey's signature counter went backwards: the authenticator may have been cloned.");
  }
  return auth.signatureCounter;
}

async function signatureValid(credential: AssertionCredential, publicKey: string): Promise<boolean> {
  const authenticatorData = decoded(() => fromBase64Url(credential.response.authenticatorData), "authenticator data");
  const clientDataHash = new Uint8Array(
    await crypto.subtle.digest(
      "SHA-256",
      decoded(() => fromBase64Url(credential.response.clientDataJSON), "client data"),
    ),
  );
  const message = new Uint8Array(authenticatorData.length + clientDataHash.length);
  message.set(authenticatorData);
  message.set(clientDataHash, authenticatorData.length);
  const signature = decoded(() => p1363FromDer(fromBase64Url(credential.response.signature)), "signature");
  const key = await importP256(decoded(() => fromBase64Url(publicKey), "public key"));
  return crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, new Uint8Array(signature), message);
}

/**
 * An ES256 assertion signature is DER, SEQUENCE { INTEGER r, INTEGER s } (WebAuthn §6.5.6); Web Crypto
 * wants r || s, 32 bytes each. Strict: any other shape is refused rather than guessed at.
 */
function p1363FromDer(der: Uint8Array): Uint8Array {
  const out = new Uint8Array(64);
  if (der[0] !== 0x30 || der[1] !== der.length - 2) throw new Error("not a DER sequence");
  let at = 2;
  for (const offset of [0, 32]) {
    const length = der[at + 1]!;
    if (der[at] !== 0x02 || length < 1 || length > 33 || at + 2 + length > der.length) throw new Error("not a DER integer");
    let value = der.subarray(at + 2, at + 2 + length);
    if (value.length === 33) {
      if (value[0] !== 0) throw new Error("integer too long");
      value = value.subarray(1);
    }
    out.set(value, offset + 32 - value.length);
    at += 2 + length;
  }
  if (at !== der.length) throw new Error("trailing bytes");
  return out;
}

function sec1Uncompressed(x: bigint, y: bigint): Uint8Array {
  const bytes = new Uint8Array(65);
  bytes[0] = 4;
  for (let i = 0; i < 32; i++) {
    bytes[32 - i] = Number((x >> BigInt(8 * i)) & 0xffn);
    bytes[64 - i] = Number((y >> BigInt(8 * i)) & 0xffn);
  }
  return bytes;
}
