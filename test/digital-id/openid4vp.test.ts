// openid4vp-v1-unsigned end to end: the test wallet reads the DCQL query, presents an mdoc (OpenID4VP DC
// API handover transcript) or an SD-JWT VC (key-binding JWT), and encrypts the `dc_api.jwt` response to
// the request's key; the service decrypts and verifies. One test per check that can fail.
import { describe, expect, it } from "vitest";
import { EU_AGE, MDL, answer, documentSigner, issueMdoc, issueSdJwtVc, makeIssuer } from "../wallet";
import { APP_ORIGIN, newRequest, root, signerUnderTestRoot, verify, refused } from "./wallet-setup";

const protocol = "openid4vp-v1-unsigned" as const;

const sdJwt = async (ages: Record<number, boolean>, options: Partial<Parameters<typeof issueSdJwtVc>[0]> = {}) =>
  issueSdJwtVc({ signer: await documentSigner(await root(), { extendedKeyUsage: undefined }), ages, ...options });

describe("openid4vp-v1-unsigned with an mdoc", () => {
  it("an mDL approves, an EU proof-of-age mdoc denies with UNDER_AGE", async () => {
    const first = await newRequest(18);
    const mdl = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    expect(await verify(await answer(first.requests, mdl, { origin: APP_ORIGIN, protocol }), first.pending, 18)).toStrictEqual({
      outcome: "APPROVED",
    });
    const second = await newRequest(18);
    const av = await issueMdoc({ kind: EU_AGE, signer: await signerUnderTestRoot(), ages: { 18: false } });
    expect(await verify(await answer(second.requests, av, { origin: APP_ORIGIN, protocol }), second.pending, 18)).toStrictEqual({
      outcome: "DENIED",
      denialReason: "UNDER_AGE",
    });
  });

  it("a presentation for another origin fails the device signature (the handover transcript binds the origin)", async () => {
    const { requests, pending } = await newRequest(18);
    const mdl = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    await refused(
      verify(await answer(requests, mdl, { origin: "https://evil.example", protocol }), pending, 18),
      /device signature does not cover this request/,
    );
  });

  it("a device signature made for another origin with its payload embedded is refused (the replayed-answer forgery)", async () => {
    const { requests, pending } = await newRequest(18);
    const mdl = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    await refused(
      verify(await answer(requests, mdl, { origin: "https://evil.example", protocol, embedDevicePayload: true }), pending, 18),
      /device signature's payload must be detached/,
    );
    const own = await newRequest(18);
    await refused(
      verify(await answer(own.requests, mdl, { origin: APP_ORIGIN, protocol, embedDevicePayload: true }), own.pending, 18),
      /device signature's payload must be detached/,
    );
  });

  it("an answer to an earlier request does not decrypt with the latest request's key", async () => {
    const earlier = await newRequest(18);
    const latest = await newRequest(18);
    const mdl = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    await refused(
      verify(await answer(earlier.requests, mdl, { origin: APP_ORIGIN, protocol }), latest.pending, 18),
      /another request's key/,
    );
  });

  it("a changed element value fails its digest", async () => {
    const { requests, pending } = await newRequest(18);
    const mdl = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: false } });
    await refused(
      verify(await answer(requests, mdl, { origin: APP_ORIGIN, protocol, tamper: { element: "age_over_18", value: true } }), pending, 18),
      /does not match its signed digest/,
    );
  });
});

describe("openid4vp-v1-unsigned with an SD-JWT VC", () => {
  it("age_equal_or_over.18: true approves 18; false denies with UNDER_AGE", async () => {
    const first = await newRequest(18);
    expect(
      await verify(await answer(first.requests, await sdJwt({ 18: true, 21: false }), { origin: APP_ORIGIN }), first.pending, 18),
    ).toStrictEqual({ outcome: "APPROVED" });
    const second = await newRequest(18);
    expect(
      await verify(await answer(second.requests, await sdJwt({ 18: false }), { origin: APP_ORIGIN }), second.pending, 18),
    ).toStrictEqual({ outcome: "DENIED", denialReason: "UNDER_AGE" });
  });

  it("is offered (and verifies) above 99, where the mdoc way is not", async () => {
    const { requests, pending } = await newRequest(100);
    expect(await verify(await answer(requests, await sdJwt({ 100: true }), { origin: APP_ORIGIN }), pending, 100)).toStrictEqual({
      outcome: "APPROVED",
    });
  });

  it("only age_equal_or_over.18: true against 21 is DIGITAL_ID_INSUFFICIENT", async () => {
    const { requests, pending } = await newRequest(21);
    const response = await answer(requests, await sdJwt({ 18: true }), { origin: APP_ORIGIN, disclose: ["18"] });
    await expect(verify(response, pending, 21)).rejects.toMatchObject({ code: "DIGITAL_ID_INSUFFICIENT" });
  });

  it("a key-binding JWT with another request's nonce is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt({ 18: true }), { origin: APP_ORIGIN, keyBinding: { nonce: "another-nonce" } }),
        pending,
        18,
      ),
      /another request \(nonce\)/,
    );
  });

  it("a key-binding JWT for another audience is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt({ 18: true }), { origin: APP_ORIGIN, keyBinding: { audience: "origin:https://evil.example" } }),
        pending,
        18,
      ),
      /another origin \(aud\)/,
    );
  });

  it("a key-binding JWT signed by another key than the credential's cnf key is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    await refused(
      verify(await answer(requests, await sdJwt({ 18: true }), { origin: APP_ORIGIN, keyBinding: { key: other.privateKey } }), pending, 18),
      /key-binding JWT's signature is wrong/,
    );
  });

  it("a key-binding JWT whose sd_hash covers another presentation is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt({ 18: true }), {
          origin: APP_ORIGIN,
          keyBinding: { sdHash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
        }),
        pending,
        18,
      ),
      /sd_hash/,
    );
  });

  it("a key-binding JWT made long before this request (iat) is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt({ 18: true }), {
          origin: APP_ORIGIN,
          keyBinding: { issuedAt: Math.floor(Date.now() / 1000) - 3600 },
        }),
        pending,
        18,
      ),
      /\(iat\)/,
    );
  });

  it("a changed disclosure (age_equal_or_over.18 turned true) matches no signed digest", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt({ 18: false }), { origin: APP_ORIGIN, forgeDisclosure: { name: "18", value: true } }),
        pending,
        18,
      ),
      /matches no digest/,
    );
  });

  it("an issuer outside the anchors is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await sdJwt({ 18: true }, { signer: await documentSigner(await makeIssuer({ subject: "Another root", ca: true })) });
    await refused(verify(await answer(requests, credential, { origin: APP_ORIGIN }), pending, 18), /does not chain to a trusted issuer/);
  });

  it("an issuer JWT signed by another key than its x5c certificate's is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const forger = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    await refused(
      verify(await answer(requests, await sdJwt({ 18: true }, { signingKey: forger.privateKey }), { origin: APP_ORIGIN }), pending, 18),
      /issuer JWT's signature is wrong/,
    );
  });

  it("an expired SD-JWT VC is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt({ 18: true }, { expiresAt: new Date(Date.now() - 60_000) }), { origin: APP_ORIGIN }),
        pending,
        18,
      ),
      /expired \(exp\)/,
    );
  });

  it("a credential of a type that was not asked for (vct) is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(await answer(requests, await sdJwt({ 18: true }, { vct: "urn:example:loyalty-card" }), { origin: APP_ORIGIN }), pending, 18),
      /vct/,
    );
  });
});
