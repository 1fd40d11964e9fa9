// TEST ONLY. What the attestation tests share: a verified adult, an offer, an issued attestation as the
// test wallet's Mdoc (with the proof's private key as its device key), and the checks every attestation
// must pass.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { call } from "../helpers/http";
import { registerVerified } from "../helpers/accounts";
import { verifyKycViaSandbox } from "../helpers/kyc";
import { EU_AGE, type Mdoc } from "../wallet";
import { deviceResponse } from "../wallet/mdoc";
import { decode, fromBase64url, type Tag } from "../wallet/cbor";
import { verifyDeviceResponse } from "../../src/digital-id/mdoc-document";
import { parseTrustAnchors } from "../../src/digital-id";

export const ISSUER = env.APP_URL;

/** The attestation presented (device-signed for a test transcript) to the service's own mdoc verifier. */
export async function verifyAsSession(mdoc: Mdoc, iacaPem: string) {
  const transcript = [null, null, ["test", new Uint8Array([1, 2, 3])]];
  const response = await deviceResponse(mdoc, transcript, { disclose: ["age_over_18"] });
  return verifyDeviceResponse(response, transcript, parseTrustAnchors(iacaPem), new Date());
}

const DAY = 86_400_000;

export async function verifiedAdult(dob = "1990-04-02") {
  const account = await registerVerified();
  await verifyKycViaSandbox(account.token, dob);
  return account;
}

export async function offerFor(token: string) {
  const res = await call("POST", "/api/attestations/offers", { token, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as {
    credential_offer: Record<string, any>;
    credential_offer_uri: string;
    av_uri: string;
    tx_code: string;
    expires_at: string;
  };
}

/** The issued IssuerSigned as the test wallet's Mdoc, holding the proof's private key as its device key. */
export function asWalletMdoc(credential: string, deviceKey: CryptoKeyPair): Mdoc {
  const issuerSigned = decode(fromBase64url(credential)) as Map<string, any>;
  const items = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const item of issuerSigned.get("nameSpaces").get(EU_AGE.namespace) as Tag[]) {
    const bytes = new Uint8Array(item.value as Uint8Array);
    items.set((decode(bytes) as Map<string, unknown>).get("elementIdentifier") as string, bytes);
  }
  return { ...EU_AGE, items, issuerAuth: issuerSigned.get("issuerAuth"), deviceKey };
}

/** Everything an independent verifier and this test check of one attestation; returns its MSO. */
export async function expectValidAttestation(credential: string, deviceKey: CryptoKeyPair, iacaPem: string) {
  const mdoc = asWalletMdoc(credential, deviceKey);
  // The service's verifier, as a session runs it, against the served root alone.
  const outcome = await verifyAsSession(mdoc, iacaPem);
  expect(outcome).toHaveLength(1);
  expect(JSON.stringify(outcome)).toContain("18");
  expect([...mdoc.items.keys()]).toStrictEqual(["age_over_18"]);
  expect((decode(mdoc.items.get("age_over_18")!) as Map<string, unknown>).get("elementValue")).toBe(true);
  // The MSO by hand: the device key, whole-day validity.
  const [, , payload] = mdoc.issuerAuth as [Uint8Array, Map<number, Uint8Array>, Uint8Array];
  const mso = decode((decode(payload) as Tag).value as Uint8Array) as Map<string, any>;
  const coseKey = mso.get("deviceKeyInfo").get("deviceKey") as Map<number, Uint8Array>;
  const jwk = (await crypto.subtle.exportKey("jwk", deviceKey.publicKey)) as JsonWebKey;
  expect([...coseKey.get(-2)!]).toStrictEqual([...fromBase64url(jwk.x!)]);
  expect([...coseKey.get(-3)!]).toStrictEqual([...fromBase64url(jwk.y!)]);
  // cbor-x reads a tag-0 tdate as a Date.
  const validity = mso.get("validityInfo") as Map<string, Date>;
  const [signed, validFrom, validUntil] = ["signed", "validFrom", "validUntil"].map((name) => validity.get(name)!.getTime()) as [
    number,
    number,
    number,
  ];
  for (const time of [signed, validFrom, validUntil]) expect(time % DAY).toBe(0);
  expect(signed).toBe(Math.floor(Date.now() / DAY) * DAY);
  expect(validFrom).toBe(signed);
  expect(validUntil - signed).toBeGreaterThan(0);
  expect(validUntil - signed).toBeLessThanOrEqual(93 * DAY);
  return mso;
}

/** The base64url IssuerSigned of each `{credential}` of a credential response. */
export const credentialsOf = (issued: { credentialResponse: { credentials?: unknown[] } }): string[] =>
  (issued.credentialResponse.credentials ?? []).map((entry) => (entry as { credential: string }).credential);
