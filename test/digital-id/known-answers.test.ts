/// <reference types="vite/client" />
// Published known answers (test/fixtures/digital-id-vectors.json, each entry naming its source) run
// through the service's own code, so the verifier is not only consistent with the test wallet:
// RFC 9180's HPKE vector, OpenID4VP 1.0's DC API transcript and encrypted response, a Multipaz Annex C
// request's reader signature over our `dcapi` transcript, and the issuer (and, for Google's, device)
// side of two wallets' DeviceResponses, each at the vector's `verifyAt`.
import { describe, expect, it } from "vitest";
import { Encoder } from "cbor-x";
import vectorsText from "../fixtures/digital-id-vectors.json?raw";
import { decodeCbor, encodeCbor, Tagged } from "../../src/digital-id/cbor";
import { asArray, asMap } from "../../src/digital-id/cbor-read";
import { parseTrustAnchors, verifyChain } from "../../src/digital-id/certificate-chain";
import { readSign1, verifyDetachedSign1, x5chain } from "../../src/digital-id/cose";
import { importSpki } from "../../src/digital-id/ecdsa";
import { hpkeOpen } from "../../src/digital-id/hpke";
import { decryptEcdhEsJwe } from "../../src/digital-id/jwe";
import { verifyDeviceSigned, verifyIssuerSigned } from "../../src/digital-id/mdoc-document";
import { annexCTranscript, ecJwkThumbprint, openId4VpTranscript } from "../../src/digital-id/transcripts";
import { fromBase64Url, fromUtf8, toHex, utf8 } from "../../src/lib/encoding";

const vectors = JSON.parse(vectorsText);
const hex = (text: string) => Uint8Array.from(text.match(/../g)!, (pair) => parseInt(pair, 16));
/** An independent CBOR encoder, for the one transcript the service itself never builds (draft 24's). */
const cborX = new Encoder({ useRecords: false, mapsAsObjects: false, tagUint8Array: false, variableMapSize: true });

describe("RFC 9180 Appendix A.3.1 (DHKEM(P-256), HKDF-SHA256, AES-128-GCM)", () => {
  it("opens the published ciphertext to the published plaintext", async () => {
    const v = vectors.rfc9180_a31;
    const plaintext = await hpkeOpen(hex(v.skRm), hex(v.enc), hex(v.ct), hex(v.info), hex(v.aad));
    expect(toHex(plaintext)).toBe(v.pt);
  });

  it("refuses the ciphertext under other info (the transcript is bound)", async () => {
    const v = vectors.rfc9180_a31;
    await expect(hpkeOpen(hex(v.skRm), hex(v.enc), hex(v.ct), utf8("another transcript"), hex(v.aad))).rejects.toThrow();
  });
});

describe("OpenID4VP 1.0 Appendix B.2.6.2 (DC API handover)", () => {
  it("computes the published JWK thumbprint, handover info and SessionTranscript", async () => {
    const v = vectors.oid4vp_dc_api_transcript;
    const thumbprint = await ecJwkThumbprint(v.jwk);
    expect(toHex(thumbprint)).toBe(v.jwkThumbprint);
    expect(toHex(encodeCbor([v.origin, v.nonce, thumbprint]))).toBe(v.handoverInfo);
    expect(toHex(encodeCbor(await openId4VpTranscript(v.origin, v.nonce, thumbprint)))).toBe(v.sessionTranscript);
  });
});

describe("OpenID4VP 1.0 §8.3 (encrypted response)", () => {
  it("decrypts the published JWE with the published key", async () => {
    const v = vectors.oid4vp_encrypted_response;
    const plaintext = JSON.parse(fromUtf8(await decryptEcdhEsJwe(v.response, v.jwk)));
    expect(plaintext).toHaveProperty("vp_token");
  });

  it("refuses it for a key with another kid, and for a changed ciphertext", async () => {
    const v = vectors.oid4vp_encrypted_response;
    await expect(decryptEcdhEsJwe(v.response, { ...v.jwk, kid: "other" })).rejects.toMatchObject({ code: "DIGITAL_ID_INVALID" });
    const parts = v.response.split(".");
    parts[3] = (parts[3][0] === "A" ? "B" : "A") + parts[3].slice(1);
    await expect(decryptEcdhEsJwe(parts.join("."), v.jwk)).rejects.toMatchObject({ code: "DIGITAL_ID_INVALID" });
  });
});

describe("Multipaz Annex C request (ISO/IEC TS 18013-7 Annex C)", () => {
  it("its reader signature verifies over our dcapi SessionTranscript for its origin", async () => {
    const v = vectors.multipaz_annex_c_request;
    const transcript = await annexCTranscript(v.encryptionInfo, v.origin);
    const docRequest = asMap(
      asArray(asMap(decodeCbor(fromBase64Url(v.deviceRequest)), "request").get("docRequests"), "docRequests")[0],
      "docRequest",
    );
    const readerAuth = readSign1(docRequest.get("readerAuth"), "readerAuth");
    const [readerCertificate] = x5chain(readerAuth, "readerAuth");
    const reader = parseTrustAnchors(
      `-----BEGIN CERTIFICATE-----\n${btoa(String.fromCharCode(...readerCertificate!))}\n-----END CERTIFICATE-----`,
    )[0]!;
    const key = await importSpki(reader.spki, reader.curve);
    const readerAuthentication = (t: unknown) =>
      encodeCbor(new Tagged(24, encodeCbor(["ReaderAuthentication", t, docRequest.get("itemsRequest")])));
    expect(await verifyDetachedSign1(readerAuth, key, readerAuthentication(transcript), "the reader signature")).toBe(true);
    // The same signature does not verify for another origin: the transcript binds it.
    expect(
      await verifyDetachedSign1(
        readerAuth,
        key,
        readerAuthentication(await annexCTranscript(v.encryptionInfo, "https://example.com")),
        "the reader signature",
      ),
    ).toBe(false);
    // Its own signed bytes put into the payload slot: refused before any check, though they are the expected ones.
    const embedded = { ...readerAuth, payload: readerAuthentication(transcript) as Uint8Array<ArrayBuffer> };
    await expect(verifyDetachedSign1(embedded, key, readerAuthentication(transcript), "the reader signature")).rejects.toMatchObject({
      code: "DIGITAL_ID_INVALID",
      message: expect.stringMatching(/payload must be detached/),
    });
  });
});

function firstDocument(deviceResponse: string) {
  const response = asMap(decodeCbor(fromBase64Url(deviceResponse)), "DeviceResponse");
  return asMap(asArray(response.get("documents"), "documents")[0], "document");
}

describe("Multipaz DeviceResponse (EU PID), issuer side", () => {
  const v = vectors.multipaz_device_response;

  it("verifies issuer data authentication under the Multipaz test IACA at verifyAt", async () => {
    const verified = await verifyIssuerSigned(firstDocument(v.deviceResponse), parseTrustAnchors(v.iacaPem), new Date(v.verifyAt));
    expect(verified.docType).toBe("eu.europa.ec.eudi.pid.1");
  });

  it("is refused once its MSO has expired, and under another anchor", async () => {
    await expect(
      verifyIssuerSigned(firstDocument(v.deviceResponse), parseTrustAnchors(v.iacaPem), new Date("2026-09-24T00:00:00Z")),
    ).rejects.toMatchObject({ code: "DIGITAL_ID_INVALID" });
    const google = parseTrustAnchors(vectors.google_dc_api_device_response.signerPem);
    await expect(verifyIssuerSigned(firstDocument(v.deviceResponse), google, new Date(v.verifyAt))).rejects.toMatchObject({
      code: "DIGITAL_ID_INVALID",
    });
  });
});

describe("Google DC API DeviceResponse (mDL), issuer and device side", () => {
  const v = vectors.google_dc_api_device_response;
  const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  /** OpenID4VP draft 24's DC API handover: [origin, client_id, nonce], hashed. */
  const draft24Transcript = async (origin: string) => [
    null,
    null,
    ["OpenID4VPDCAPIHandover", await sha256(cborX.encode([origin, v.clientId, v.nonce]))],
  ];

  it("verifies the issuer signature (its signer as the anchor) and the device signature over its transcript", async () => {
    const document = firstDocument(v.deviceResponse);
    const verified = await verifyIssuerSigned(document, parseTrustAnchors(v.signerPem), new Date(v.verifyAt));
    expect(verified.docType).toBe("org.iso.18013.5.1.mDL");
    await verifyDeviceSigned(document, verified, await draft24Transcript(v.origin));
  });

  it("refuses the device signature for another origin", async () => {
    const document = firstDocument(v.deviceResponse);
    const verified = await verifyIssuerSigned(document, parseTrustAnchors(v.signerPem), new Date(v.verifyAt));
    await expect(verifyDeviceSigned(document, verified, await draft24Transcript("https://example.com"))).rejects.toMatchObject({
      code: "DIGITAL_ID_INVALID",
    });
  });

  it("its signer chains only where trusted: verifyChain refuses it under the Multipaz IACA", async () => {
    const signer = parseTrustAnchors(v.signerPem)[0]!;
    await expect(
      verifyChain([signer.der], parseTrustAnchors(vectors.multipaz_device_response.iacaPem), new Date(v.verifyAt), "mdoc"),
    ).rejects.toMatchObject({ code: "DIGITAL_ID_INVALID" });
  });
});
