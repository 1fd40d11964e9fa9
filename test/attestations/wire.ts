// TEST ONLY. The OpenID4VCI calls made by hand, for the refusals a standard client would never send:
// form-encoded token requests, proofs with one field wrong, credential requests with any body.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { base64url } from "../wallet/cbor";
import { toWorker } from "./standard-wallet";

export const ISSUER_URL = env.APP_URL;
export const PRE_AUTHORIZED = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

const json = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

export async function tokenRequest(form: Record<string, string>) {
  const res = await toWorker(`${ISSUER_URL}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

export async function nonce(): Promise<string> {
  const res = await toWorker(`${ISSUER_URL}/nonce`, { method: "POST" });
  expect(res.status).toBe(200);
  return ((await res.json()) as { c_nonce: string }).c_nonce;
}

export async function credentialRequest(accessToken: string, body: unknown) {
  const res = await toWorker(`${ISSUER_URL}/credential`, {
    method: "POST",
    headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export type ProofFaults = {
  typ?: string;
  alg?: string;
  aud?: string;
  iat?: number;
  nonce?: string;
  signWith?: CryptoKey;
  headerExtra?: Record<string, unknown>;
};

/** A proof JWT for `pair` over `nonceValue`, with the faults asked for. */
export async function proof(pair: CryptoKeyPair, nonceValue: string, faults: ProofFaults = {}): Promise<string> {
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  const header = { typ: faults.typ ?? "openid4vci-proof+jwt", alg: faults.alg ?? "ES256", jwk: { kty, crv, x, y }, ...faults.headerExtra };
  const payload = { aud: faults.aud ?? ISSUER_URL, iat: faults.iat ?? Math.floor(Date.now() / 1000), nonce: faults.nonce ?? nonceValue };
  const input = `${json(header)}.${json(payload)}`;
  const signature = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, faults.signWith ?? pair.privateKey, new TextEncoder().encode(input)),
  );
  return `${input}.${base64url(signature)}`;
}

export const keyPair = async () =>
  (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;

export const body = (jwts: string[]) => ({ credential_configuration_id: "proof_of_age", proofs: { jwt: jwts } });
