/// <reference types="vite/client" />
// Production refuses the committed test root: the service recognises it by its public key, and only it.
import { describe, expect, it } from "vitest";
import rootPem from "../wallet/test-iaca.pem?raw";
import rootKey from "../wallet/test-iaca-key.json?raw";
import vectorsText from "../fixtures/digital-id-vectors.json?raw";
import { includesTestAnchor, parseTrustAnchors } from "../../src/digital-id";
import { TEST_IACA_SPKI_BASE64 } from "../../src/digital-id/test-anchor";
import { toBase64 } from "../../src/lib/encoding";
import { makeIssuer, toPem } from "../wallet";

describe("the committed test IACA root", () => {
  it("is recognised among the anchors, alone or with others", () => {
    const multipaz = JSON.parse(vectorsText).multipaz_device_response.iacaPem as string;
    expect(includesTestAnchor(parseTrustAnchors(rootPem))).toBe(true);
    expect(includesTestAnchor(parseTrustAnchors(`${multipaz}\n${rootPem}`))).toBe(true);
  });

  it("is not confused with another root", () => {
    const multipaz = JSON.parse(vectorsText).multipaz_device_response.iacaPem as string;
    expect(includesTestAnchor(parseTrustAnchors(multipaz))).toBe(false);
  });

  it("is recognised by its public key, which is the committed file's", () => {
    expect(TEST_IACA_SPKI_BASE64).toBe(toBase64(parseTrustAnchors(rootPem)[0]!.spki));
  });

  it("is recognised when its signature is changed, or when it is re-issued around the same key", async () => {
    const der = Uint8Array.from(atob(rootPem.replace(/-----[A-Z ]+-----|\s/g, "")), (c) => c.charCodeAt(0));
    der[der.length - 1]! ^= 0x01;
    expect(includesTestAnchor(parseTrustAnchors(toPem(der)))).toBe(true);
    const privateJwk = JSON.parse(rootKey) as JsonWebKey;
    const { d: _d, key_ops: _ops, ...publicJwk } = privateJwk as JsonWebKey & { key_ops?: string[] };
    const keyPair = {
      privateKey: await crypto.subtle.importKey("jwk", privateJwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]),
      publicKey: await crypto.subtle.importKey("jwk", publicJwk, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]),
    };
    const renamed = await makeIssuer({ subject: "A trustworthy-looking root", ca: true, keyPair });
    expect(includesTestAnchor(parseTrustAnchors(toPem(renamed.certificate)))).toBe(true);
  });
});

describe("parseTrustAnchors", () => {
  it("refuses a setting with no certificate, or one that cannot be read", () => {
    expect(() => parseTrustAnchors("")).toThrow(/no PEM CERTIFICATE/);
    expect(() => parseTrustAnchors("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----")).toThrow(/certificate 1 cannot be used/);
  });
});
