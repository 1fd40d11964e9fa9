// org-iso-mdoc (ISO/IEC TS 18013-7 Annex C) end to end: the service's request, the test wallet's answer
// (HPKE-sealed DeviceResponse for the `dcapi` transcript), the service's verification and outcome. One
// test per check that can fail (docs/digital-id.md), each answer made by the wallet with one fault.
import { describe, expect, it } from "vitest";
import { EU_AGE, MDL, answer, documentSigner, issueMdoc, makeIssuer, toPem } from "../wallet";
import { parseTrustAnchors } from "../../src/digital-id";
import { APP_ORIGIN, newRequest, root, signerUnderTestRoot, verify, refused } from "./wallet-setup";

const DAY = 86_400_000;

async function mdl(ages: Record<number, boolean>, options: Partial<Parameters<typeof issueMdoc>[0]> = {}) {
  return issueMdoc({
    kind: MDL,
    signer: await signerUnderTestRoot(),
    ages,
    otherElements: { family_name: "Doe", birth_date: "2001-02-03" },
    ...options,
  });
}

describe("org-iso-mdoc: outcomes", () => {
  it("an mDL with age_over_18: true approves a session of 18, and nothing of the credential comes back", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: true, 21: false }), { origin: APP_ORIGIN });
    expect(await verify(response, pending, 18)).toStrictEqual({ outcome: "APPROVED" });
  });

  it("an EU proof-of-age mdoc (eu.europa.ec.av.1) approves", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await issueMdoc({ kind: EU_AGE, signer: await signerUnderTestRoot(), ages: { 18: true } });
    expect(await verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18)).toStrictEqual({ outcome: "APPROVED" });
  });

  it("age_over_18: false against 18 is DENIED with UNDER_AGE", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: false }), { origin: APP_ORIGIN });
    expect(await verify(response, pending, 18)).toStrictEqual({ outcome: "DENIED", denialReason: "UNDER_AGE" });
  });

  it("age_over_21: true against 19 approves (the wallet answers with the nearest higher true statement)", async () => {
    const { requests, pending } = await newRequest(19);
    const response = await answer(requests, await mdl({ 18: true, 21: true }), { origin: APP_ORIGIN });
    expect(await verify(response, pending, 19)).toStrictEqual({ outcome: "APPROVED" });
  });

  it("age_over_18: true alone against 21 is 422 DIGITAL_ID_INSUFFICIENT", async () => {
    const { requests, pending } = await newRequest(21);
    const response = await answer(requests, await mdl({ 18: true }), { origin: APP_ORIGIN, disclose: ["age_over_18"] });
    await expect(verify(response, pending, 21)).rejects.toMatchObject({ code: "DIGITAL_ID_INSUFFICIENT", status: 422 });
  });

  it("age_over_21: false against 19 decides nothing (a false statement denies only at or below the age asked)", async () => {
    const { requests, pending } = await newRequest(19);
    const response = await answer(requests, await mdl({ 18: true, 21: false }), { origin: APP_ORIGIN, disclose: ["age_over_21"] });
    await expect(verify(response, pending, 19)).rejects.toMatchObject({ code: "DIGITAL_ID_INSUFFICIENT", status: 422 });
  });

  it("elements the request did not ask for do not decide: a disclosed age_over_65 false is ignored against 18", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: true, 65: false }), {
      origin: APP_ORIGIN,
      disclose: ["age_over_18", "family_name"],
    });
    expect(await verify(response, pending, 18)).toStrictEqual({ outcome: "APPROVED" });
  });
});

describe("org-iso-mdoc: binding to this request", () => {
  it("an answer made for another origin is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: true }), { origin: "https://evil.example" });
    await refused(verify(response, pending, 18), /does not open with this request/);
  });

  it("an answer to an earlier request (another nonce and key) is refused: only the latest request answers", async () => {
    const earlier = await newRequest(18);
    const latest = await newRequest(18);
    const response = await answer(earlier.requests, await mdl({ 18: true }), { origin: APP_ORIGIN });
    await refused(verify(response, latest.pending, 18), /does not open with this request/);
  });

  it("a replay of an answered response is refused once the request is gone", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: true }), { origin: APP_ORIGIN });
    expect(await verify(response, pending, 18)).toStrictEqual({ outcome: "APPROVED" });
    await refused(verify(response, null, 18), /no open request/);
    await refused(verify(response, (await newRequest(18)).pending, 18), /does not open with this request/);
  });

  it("a device signature made for another origin, its DeviceAuthenticationBytes copied into the payload slot, is refused (the replayed-answer forgery)", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await mdl({ 18: true });
    const forged = await answer(requests, credential, {
      origin: APP_ORIGIN,
      deviceSignedForOrigin: "https://evil.example",
      embedDevicePayload: true,
    });
    await refused(verify(forged, pending, 18), /device signature's payload must be detached/);
    // The same capture left detached is refused by the signature itself.
    const detached = await answer(requests, credential, { origin: APP_ORIGIN, deviceSignedForOrigin: "https://evil.example" });
    await refused(verify(detached, pending, 18), /device signature does not cover this request/);
  });

  it("a device signature with an embedded payload is refused even when the bytes are this request's own", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: true }), { origin: APP_ORIGIN, embedDevicePayload: true });
    await refused(verify(response, pending, 18), /device signature's payload must be detached/);
  });

  it("a device signature by another key than the MSO's device key is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const response = await answer(requests, await mdl({ 18: true }), { origin: APP_ORIGIN, deviceSigningKey: other.privateKey });
    await refused(verify(response, pending, 18), /device signature does not cover this request/);
  });
});

describe("org-iso-mdoc: issuer data", () => {
  it("a changed element value (age_over_18 turned true) fails its digest", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: false }), {
      origin: APP_ORIGIN,
      tamper: { element: "age_over_18", value: true },
    });
    await refused(verify(response, pending, 18), /does not match its signed digest/);
  });

  it("an expired MSO is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await mdl({ 18: true }, { validFrom: new Date(Date.now() - 30 * DAY), validUntil: new Date(Date.now() - DAY) });
    await refused(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18), /has expired \(MSO validUntil\)/);
  });

  it("an MSO not valid yet is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await mdl({ 18: true }, { validFrom: new Date(Date.now() + DAY), validUntil: new Date(Date.now() + 30 * DAY) });
    await refused(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18), /not valid yet \(MSO validFrom\)/);
  });

  it("an MSO signed by another key than its x5chain certificate's is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const forger = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const credential = await mdl({ 18: true }, { issuerAuthKey: forger.privateKey });
    await refused(
      verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18),
      /issuer signature over the mobile security object is wrong/,
    );
  });

  it("issuer-signed age elements of another namespace do not count (only the doctype's own namespace)", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await mdl({ 18: false }, { otherNamespace: { namespace: "org.iso.18013.5.1.aamva", ages: { 18: true } } });
    expect(await verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18)).toStrictEqual({
      outcome: "DENIED",
      denialReason: "UNDER_AGE",
    });
  });

  it("an MSO signed for another doctype is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await mdl({ 18: true }, { msoDocType: "eu.europa.ec.av.1" });
    await refused(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18), /doctype differs from the signed one/);
  });
});

describe("org-iso-mdoc: issuer trust", () => {
  it("an issuer outside the anchors (a document signer under another root) is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const otherRoot = await makeIssuer({ subject: "Another IACA", ca: true });
    const credential = await mdl({ 18: true }, { signer: await documentSigner(otherRoot) });
    await refused(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18), /does not chain to a trusted issuer/);
  });

  it("a chain through an intermediate CA verifies (under a root whose pathLenConstraint allows one), and a broken one (a look-alike intermediate) is refused", async () => {
    const wideRoot = await makeIssuer({ subject: "TEST ONLY root with pathLen 1", ca: true, pathLength: 1 });
    const trust = parseTrustAnchors(toPem(wideRoot.certificate));
    const intermediate = await makeIssuer({ subject: "TEST ONLY intermediate", issuer: wideRoot, ca: true });
    const lookAlike = await makeIssuer({ subject: "TEST ONLY intermediate", issuer: wideRoot, ca: true });
    const signer = await documentSigner(intermediate);

    const good = await newRequest(18);
    const chained = await mdl({ 18: true }, { signer, chainAfterSigner: [intermediate.certificate] });
    expect(await verify(await answer(good.requests, chained, { origin: APP_ORIGIN }), good.pending, 18, trust)).toStrictEqual({
      outcome: "APPROVED",
    });

    const broken = await newRequest(18);
    const brokenChain = await mdl({ 18: true }, { signer, chainAfterSigner: [lookAlike.certificate] });
    await refused(verify(await answer(broken.requests, brokenChain, { origin: APP_ORIGIN }), broken.pending, 18, trust), /chain is broken/);
  });

  it("a document signer whose certificate has expired is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const signer = await documentSigner(await root(), {
      notBefore: new Date("2025-01-01T00:00:00Z"),
      notAfter: new Date(Date.now() - DAY),
    });
    await refused(
      verify(await answer(requests, await mdl({ 18: true }, { signer }), { origin: APP_ORIGIN }), pending, 18),
      /signing certificate has expired/,
    );
  });

  it("a signer certificate without the digitalSignature key usage is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const signer = await documentSigner(await root(), { keyUsage: "keyCertSign" });
    await refused(
      verify(await answer(requests, await mdl({ 18: true }, { signer }), { origin: APP_ORIGIN }), pending, 18),
      /signing certificate is not allowed to sign/,
    );
  });

  it("a signer under an issuing certificate that is not a CA is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const notCa = await makeIssuer({ subject: "TEST ONLY not a CA", issuer: await root(), ca: false, keyUsage: "keyCertSign" });
    const signer = await documentSigner(notCa);
    const credential = await mdl({ 18: true }, { signer, chainAfterSigner: [notCa.certificate] });
    await refused(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18), /not a CA/);
  });

  it("a signer under a CA certificate without the keyCertSign key usage is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const noCertSign = await makeIssuer({
      subject: "TEST ONLY CA without keyCertSign",
      issuer: await root(),
      ca: true,
      keyUsage: "digitalSignature",
    });
    const credential = await mdl({ 18: true }, { signer: await documentSigner(noCertSign), chainAfterSigner: [noCertSign.certificate] });
    await refused(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18), /not allowed to sign certificates/);
  });

  it("issuer-signed age statements that contradict each other are refused (age_over_20 true, age_over_19 false)", async () => {
    const { requests, pending } = await newRequest(19);
    const response = await answer(requests, await mdl({ 19: false, 20: true }), {
      origin: APP_ORIGIN,
      disclose: ["age_over_19", "age_over_20"],
    });
    await refused(verify(response, pending, 19), /contradict/);
  });

  it("a signer certificate with a critical extension the service does not understand is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const signer = await documentSigner(await root(), { unknownCriticalExtension: true });
    await refused(
      verify(await answer(requests, await mdl({ 18: true }, { signer }), { origin: APP_ORIGIN }), pending, 18),
      /critical extension/,
    );
  });

  it("with no trust anchors configured nothing verifies", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(verify(await answer(requests, await mdl({ 18: true }), { origin: APP_ORIGIN }), pending, 18, []), /no issuer is trusted/);
  });
});

describe("the response body", () => {
  it("is 422 VALIDATION_FAILED when it is not {protocol, data} of an offered protocol", async () => {
    const { pending } = await newRequest(18);
    await expect(verify({ protocol: "openid4vp-v1-signed", data: {} }, pending, 18)).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(verify({ protocol: "org-iso-mdoc", data: { response: 5 } }, pending, 18)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });

  it("garbage that parses as the right shape is DIGITAL_ID_INVALID, never a 500", async () => {
    const { pending } = await newRequest(18);
    await refused(verify({ protocol: "org-iso-mdoc", data: { response: "AAAA" } }, pending, 18), /not well-formed CBOR/);
    await refused(verify({ protocol: "openid4vp-v1-unsigned", data: { response: "a.b.c.d.e" } }, pending, 18), /not a compact JWE/);
  });
});
