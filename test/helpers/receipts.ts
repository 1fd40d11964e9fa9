// What an auditor does with a receipt: fetch the published key set from /.well-known/jwks.json and
// verify the JWS with a stock JOSE library (jose), pinning the algorithm and the issuer. Independent of
// src/domain/receipts.ts, so a test's expected claims never come from the code under test.
import { env } from "cloudflare:test";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { call } from "./http";

export const servedKeySet = async () => (await call("GET", "/.well-known/jwks.json")).body as unknown as JSONWebKeySet;

/** The receipt's claims once its signature verifies against the served key set; throws otherwise. */
export async function verifyReceipt(receipt: string, keySet?: JSONWebKeySet) {
  const { payload, protectedHeader } = await jwtVerify(receipt, createLocalJWKSet(keySet ?? (await servedKeySet())), {
    algorithms: ["EdDSA"],
    issuer: env.APP_URL,
    typ: "age-receipt+jwt",
  });
  return { claims: payload, header: protectedHeader };
}
