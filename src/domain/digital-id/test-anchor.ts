// The committed test IACA root (test/wallet/test-iaca.pem) is public together with its private key, so
// anyone can issue credentials under it: production must refuse to serve with it among the trust
// anchors (docs/api-contract.md §Digital ID). Recognised by the SHA-256 of its DER, or synchronously (the settings parse,
// src/config/problems.ts) by the DER itself; test/digital-id/test-anchor.test.ts keeps both constants
// equal to the committed file.
import { toBase64, toHex } from "../../lib/encoding";
import type { Certificate } from "./x509";

export const TEST_IACA_SHA256 = "05d3cf263c3915c39b988db744dfeb5e46250fb778b91c7623d18386b02ca82e";

export async function includesTestAnchor(anchors: Certificate[]): Promise<boolean> {
  for (const anchor of anchors) {
    if (toHex(await crypto.subtle.digest("SHA-256", anchor.der)) === TEST_IACA_SHA256) return true;
  }
  return false;
}

/** The committed test root's DER in base64 (the body of test/wallet/test-iaca.pem, a public certificate). */
export const TEST_IACA_DER_BASE64 =
  "MIIB0jCCAXegAwIBAgIPdQ7/1MJ4HGtZ+SOfYo58MAoGCCqGSM49BAMCMFUxUzBRBgNVBAMMSlRFU1QgT05MWSAtIGFnZS12ZXJpZmljYXRpb24tc2VydmljZSB0ZXN0IElBQ0EgKG5ldmVyIHRydXN0IGluIHByb2R1Y3Rpb24pMCIYDzIwMjYwMTAxMDAwMDAwWhgPMjA0NjAxMDEwMDAwMDBaMFUxUzBRBgNVBAMMSlRFU1QgT05MWSAtIGFnZS12ZXJpZmljYXRpb24tc2VydmljZSB0ZXN0IElBQ0EgKG5ldmVyIHRydXN0IGluIHByb2R1Y3Rpb24pMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEJ8yjthPW1pbZr80nix7LFp58/39fylLKlXAMKGys0NYKHwSJRn/mzT2V5Djcngj+MdsXUvtrLDQxLaNPpOhJNqMmMCQwEgYDVR0TAQH/BAgwBgEB/wIBADAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDSQAwRgIhAKfrVmumkeQGWADSCWhV6tiSa5fyY6URAgV1cVyBjHhwAiEA6oLM1ncooiVzQmNxVOuNuXv5rnvH+46EtKn+n2HUzRg=";

/** The same answer without a digest, for the synchronous settings parse. */
export const includesTestAnchorDer = (anchors: Certificate[]): boolean => anchors.some((anchor) => toBase64(anchor.der) === TEST_IACA_DER_BASE64);
