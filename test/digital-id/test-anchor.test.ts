/// <reference types="vite/client" />
// Production refuses the committed test root: the service recognises it, and only it.
import { describe, expect, it } from "vitest";
import rootPem from "../wallet/test-iaca.pem?raw";
import vectorsText from "../fixtures/digital-id-vectors.json?raw";
import { includesTestAnchor, includesTestAnchorDer, parseTrustAnchors } from "../../src/domain/digital-id";
import { TEST_IACA_DER_BASE64 } from "../../src/domain/digital-id/test-anchor";

describe("the committed test IACA root", () => {
  it("is recognised among the anchors, alone or with others", async () => {
    const multipaz = JSON.parse(vectorsText).multipaz_device_response.iacaPem as string;
    expect(await includesTestAnchor(parseTrustAnchors(rootPem))).toBe(true);
    expect(await includesTestAnchor(parseTrustAnchors(`${multipaz}\n${rootPem}`))).toBe(true);
  });

  it("is not confused with another root", async () => {
    const multipaz = JSON.parse(vectorsText).multipaz_device_response.iacaPem as string;
    expect(await includesTestAnchor(parseTrustAnchors(multipaz))).toBe(false);
    expect(includesTestAnchorDer(parseTrustAnchors(multipaz))).toBe(false);
  });

  it("is recognised synchronously by its DER, which is the committed file's", () => {
    expect(TEST_IACA_DER_BASE64).toBe(rootPem.replace(/-----[A-Z ]+-----|\s/g, ""));
    expect(includesTestAnchorDer(parseTrustAnchors(rootPem))).toBe(true);
  });
});

describe("parseTrustAnchors", () => {
  it("refuses a setting with no certificate, or one that cannot be read", () => {
    expect(() => parseTrustAnchors("")).toThrow(/no PEM CERTIFICATE/);
    expect(() => parseTrustAnchors("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----")).toThrow(/certificate 1 cannot be used/);
  });
});
