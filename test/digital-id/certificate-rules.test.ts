// Who may sign a credential (docs/digital-id.md, "What is verified"): an mdoc's MSO only by a document
// signer (extended key usage 1.0.18013.5.1.2, not a CA), an SD-JWT VC only by a certificate that is not
// a CA nor made for another role; every CA on the path within its pathLenConstraint; and with several
// anchors of one key (an expired root and its renewal), any one that holds is enough.
import { describe, expect, it } from "vitest";
import { MDL, answer, documentSigner, issueMdoc, issueSdJwtVc, makeIssuer, toPem, type Issuer } from "../wallet";
import { parseTrustAnchors } from "../../src/digital-id";
import { APP_ORIGIN, anchors, newRequest, root, verify } from "./wallet-setup";

const MDOC_DS = "1.0.18013.5.1.2";
const MDOC_READER_AUTH = "1.0.18013.5.1.6";
const OCSP_SIGNING = "1.3.6.1.5.5.7.3.9";
/**
 * The PKIX purposes of certificates a CA hands to people and servers: TLS server and client
 * authentication, e-mail protection, code signing, time stamping (RFC 5280 §4.2.1.12). A national eID
 * card's authentication certificate (clientAuth, emailProtection, digitalSignature) chains to the
 * same root as the country's PID issuer, and its holder signs with it whatever they like.
 */
const PERSON_OR_SERVER_ROLES = ["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2", "1.3.6.1.5.5.7.3.4", "1.3.6.1.5.5.7.3.3", "1.3.6.1.5.5.7.3.8"];
const DAY = 86_400_000;

async function outcome(verification: Promise<unknown>): Promise<string> {
  return verification.then(
    (result) => (result as { outcome: string }).outcome,
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );
}

/** An mdoc under `signer` (and the chain after it) answered and verified against `trust`. */
async function mdocOutcome(signer: Issuer, chainAfterSigner: Uint8Array[] = [], trust = anchors()) {
  const { requests, pending } = await newRequest(18);
  const mdoc = await issueMdoc({ kind: MDL, signer, chainAfterSigner, ages: { 18: true } });
  return outcome(verify(await answer(requests, mdoc, { origin: APP_ORIGIN }), pending, 18, trust));
}

async function sdJwtOutcome(signer: Issuer, chainAfterSigner: Uint8Array[] = [], trust = anchors()) {
  const { requests, pending } = await newRequest(18);
  const credential = await issueSdJwtVc({ signer, chainAfterSigner, ages: { 18: true } });
  return outcome(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18, trust));
}

describe("the mdoc document signer (extended key usage and role)", () => {
  it("a document signer (EKU 1.0.18013.5.1.2) approves", async () => {
    expect(await mdocOutcome(await documentSigner(await root()))).toBe("APPROVED");
  });

  it("a signer without the document-signer EKU is refused: none at all (an SD-JWT VC issuer's), reader authentication, OCSP signing", async () => {
    for (const extendedKeyUsage of [undefined, MDOC_READER_AUTH, OCSP_SIGNING]) {
      expect(await mdocOutcome(await documentSigner(await root(), { extendedKeyUsage }))).toMatch(
        /DIGITAL_ID_INVALID: .*(not an mdoc document signer|made for another role)/,
      );
    }
  });

  it("a document signer that is also for another role (reader authentication beside it) is refused", async () => {
    expect(await mdocOutcome(await documentSigner(await root(), { extendedKeyUsage: [MDOC_DS, MDOC_READER_AUTH] }))).toMatch(
      /for another role/,
    );
  });

  it("a CA certificate with the document-signer EKU is refused as the signer", async () => {
    expect(await mdocOutcome(await documentSigner(await root(), { ca: true, keyUsage: "digitalSignature" }))).toMatch(
      /is a CA certificate/,
    );
  });
});

describe("the SD-JWT VC issuer certificate", () => {
  it("one without EKU approves, and so does one with the mdoc document-signer EKU (issuers sign both formats with one certificate)", async () => {
    expect(await sdJwtOutcome(await documentSigner(await root(), { extendedKeyUsage: undefined }))).toBe("APPROVED");
    expect(await sdJwtOutcome(await documentSigner(await root()))).toBe("APPROVED");
  });

  it("one for another role (reader authentication, OCSP signing) is refused, and so is a CA certificate", async () => {
    for (const extendedKeyUsage of [MDOC_READER_AUTH, OCSP_SIGNING]) {
      expect(await sdJwtOutcome(await documentSigner(await root(), { extendedKeyUsage }))).toMatch(/for another role/);
    }
    expect(
      await sdJwtOutcome(await documentSigner(await root(), { extendedKeyUsage: undefined, ca: true, keyUsage: "digitalSignature" })),
    ).toMatch(/is a CA certificate/);
  });

  it("a person's or a server's certificate under a trusted root (TLS, e-mail, code signing, time stamping) signs no SD-JWT VC", async () => {
    for (const extendedKeyUsage of [...PERSON_OR_SERVER_ROLES, ["1.3.6.1.5.5.7.3.2", "1.3.6.1.5.5.7.3.4"]]) {
      expect(
        await sdJwtOutcome(await documentSigner(await root(), { extendedKeyUsage, keyUsage: "digitalSignature" })),
        String(extendedKeyUsage),
      ).toMatch(/for another role/);
    }
  });
});

describe("pathLenConstraint", () => {
  it("root (pathLen 0) → intermediate CA → signer is refused", async () => {
    const intermediate = await makeIssuer({ subject: "TEST ONLY intermediate", issuer: await root(), ca: true });
    expect(await mdocOutcome(await documentSigner(intermediate), [intermediate.certificate])).toMatch(/pathLenConstraint/);
  });

  it("a root of pathLen 1 allows one intermediate and refuses two; an intermediate's own pathLen 0 refuses one below it", async () => {
    const wideRoot = await makeIssuer({ subject: "TEST ONLY root pathLen 1", ca: true, pathLength: 1 });
    const trust = parseTrustAnchors(toPem(wideRoot.certificate));
    const first = await makeIssuer({ subject: "TEST ONLY first intermediate", issuer: wideRoot, ca: true, pathLength: null });
    expect(await mdocOutcome(await documentSigner(first), [first.certificate], trust)).toBe("APPROVED");
    const second = await makeIssuer({ subject: "TEST ONLY second intermediate", issuer: first, ca: true, pathLength: null });
    expect(await mdocOutcome(await documentSigner(second), [second.certificate, first.certificate], trust)).toMatch(/pathLenConstraint/);

    const openRoot = await makeIssuer({ subject: "TEST ONLY root without pathLen", ca: true, pathLength: null });
    const openTrust = parseTrustAnchors(toPem(openRoot.certificate));
    const strict = await makeIssuer({ subject: "TEST ONLY intermediate pathLen 0", issuer: openRoot, ca: true, pathLength: 0 });
    const below = await makeIssuer({ subject: "TEST ONLY intermediate below", issuer: strict, ca: true, pathLength: null });
    expect(await mdocOutcome(await documentSigner(strict), [strict.certificate], openTrust)).toBe("APPROVED");
    expect(await mdocOutcome(await documentSigner(below), [below.certificate, strict.certificate], openTrust)).toMatch(/pathLenConstraint/);
  });

  it("applies to SD-JWT VC issuer chains too", async () => {
    const intermediate = await makeIssuer({ subject: "TEST ONLY intermediate", issuer: await root(), ca: true });
    expect(await sdJwtOutcome(await documentSigner(intermediate, { extendedKeyUsage: undefined }), [intermediate.certificate])).toMatch(
      /pathLenConstraint/,
    );
  });
});

describe("several anchors of one key", () => {
  it("an expired root listed before its renewal (same name, same key) still verifies genuine chains, in either order", async () => {
    const keyPair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const expired = await makeIssuer({
      subject: "TEST ONLY renewed root",
      ca: true,
      keyPair,
      notBefore: new Date(Date.now() - 800 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const renewed = await makeIssuer({ subject: "TEST ONLY renewed root", ca: true, keyPair });
    const signer = await documentSigner(renewed);
    expect(await mdocOutcome(signer, [], parseTrustAnchors(toPem(expired.certificate) + toPem(renewed.certificate)))).toBe("APPROVED");
    expect(await mdocOutcome(signer, [], parseTrustAnchors(toPem(renewed.certificate) + toPem(expired.certificate)))).toBe("APPROVED");
    expect(await mdocOutcome(signer, [], parseTrustAnchors(toPem(expired.certificate)))).toMatch(/issuing CA certificate has expired/);
  });
});
