// The committed test IACA root (test/wallet/test-iaca.pem) is public together with its private key, so
// anyone can issue credentials under it: production must refuse to serve with it among the trust
// anchors (CONTRACT §13). Recognised by the SHA-256 of its DER; test/digital-id/test-anchor.test.ts keeps
// this constant equal to the committed file.
import { toHex } from "../../lib/encoding";
import type { Certificate } from "./x509";

export const TEST_IACA_SHA256 = "05d3cf263c3915c39b988db744dfeb5e46250fb778b91c7623d18386b02ca82e";

export async function includesTestAnchor(anchors: Certificate[]): Promise<boolean> {
  for (const anchor of anchors) {
    if (toHex(await crypto.subtle.digest("SHA-256", anchor.der)) === TEST_IACA_SHA256) return true;
  }
  return false;
}
