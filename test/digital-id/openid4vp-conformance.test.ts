// The OpenID Foundation's OpenID4VP 1.0 Final verifier test plan (conformance suite
// `oid4vp-1final-verifier-test-plan`), module by module, as far as it applies to the Digital Credentials
// API way this service offers (`openid4vp-v1-unsigned`, response mode `dc_api.jwt`): each test is named
// after its module and makes the answer that module's mock wallet makes, with the test wallet. A negative
// module expects 422 DIGITAL_ID_INVALID (the suite asks for a 4xx); a positive one, the approval.
// Not here: the request-URI modules (RequestUriMethodPost, RequestUriFetchedTwice: the DC API hands the
// request to the browser, no request_uri exists) and the status-list modules (PresentRevokedCredential,
// PresentCredentialOnIdentifierList), which belong with the status-list checks.
import { describe, expect, it } from "vitest";
import { MDL, answer, documentSigner, issueMdoc, issueSdJwtVc, type DigitalRequest, type SdJwtVc } from "../wallet";
import { APP_ORIGIN, newRequest, root, signerUnderTestRoot, verify, refused } from "./wallet-setup";

const protocol = "openid4vp-v1-unsigned" as const;
const YEAR_SECONDS = 365 * 86_400;

const sdJwt = async () => issueSdJwtVc({ signer: await documentSigner(await root(), { extendedKeyUsage: undefined }), ages: { 18: true } });
const mdl = async () => issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });

const issuerPayload = (credential: SdJwtVc): Record<string, unknown> =>
  JSON.parse(atob(credential.issuerJwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));

/** The request as this module's wallet reads it: the same request, its nonce replaced. */
const withNonce = (requests: DigitalRequest[], nonce: string) =>
  requests.map((r) => (r.protocol === protocol ? { ...r, data: { ...r.data, nonce } } : r));

describe("OpenID4VP 1.0 Final verifier test plan (oid4vp-1final-verifier-test-plan), DC API", () => {
  it("VP1FinalVerifierHappyFlow (oid4vp-1final-verifier-happy-flow): an SD-JWT VC and an mdoc each approve", async () => {
    const first = await newRequest(18);
    expect(await verify(await answer(first.requests, await sdJwt(), { origin: APP_ORIGIN, protocol }), first.pending, 18)).toStrictEqual({
      outcome: "APPROVED",
    });
    const second = await newRequest(18);
    expect(await verify(await answer(second.requests, await mdl(), { origin: APP_ORIGIN, protocol }), second.pending, 18)).toStrictEqual({
      outcome: "APPROVED",
    });
  });

  it("VP1FinalVerifierInvalidSessionTranscript (oid4vp-1final-verifier-invalid-session-transcript): an mdoc device-signed over a transcript with another nonce is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(withNonce(requests, "another-nonce-than-the-request-s"), await mdl(), { origin: APP_ORIGIN, protocol });
    await refused(verify(response, pending, 18), /device signature does not cover this request/);
  });

  it("VP1FinalVerifierInvalidKbJwtSignature (oid4vp-1final-verifier-invalid-kb-jwt-signature): a key-binding JWT signed by another key is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    await refused(
      verify(await answer(requests, await sdJwt(), { origin: APP_ORIGIN, protocol, keyBinding: { key: other.privateKey } }), pending, 18),
      /key-binding JWT's signature is wrong/,
    );
  });

  it("VP1FinalVerifierInvalidCredentialSignature (oid4vp-1final-verifier-invalid-credential-signature): an issuer JWT whose signature is corrupted is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await sdJwt();
    const [header, payload, signature] = credential.issuerJwt.split(".") as [string, string, string];
    // Corrupt the signature's first character (a whole 6-bit group of r), as the suite's mock wallet does.
    const corrupted: SdJwtVc = {
      ...credential,
      issuerJwt: `${header}.${payload}.${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`,
    };
    await refused(
      verify(await answer(requests, corrupted, { origin: APP_ORIGIN, protocol }), pending, 18),
      /issuer JWT's signature is wrong/,
    );
  });

  it("VP1FinalVerifierInvalidSdHash (oid4vp-1final-verifier-invalid-sd-hash): a key-binding JWT whose sd_hash does not cover the presentation is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(await answer(requests, await sdJwt(), { origin: APP_ORIGIN, protocol, keyBinding: { sdHash: "A".repeat(43) } }), pending, 18),
      /sd_hash/,
    );
  });

  it("VP1FinalVerifierInvalidKbJwtNonce (oid4vp-1final-verifier-invalid-kb-jwt-nonce): a key-binding JWT for another nonce is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(await answer(requests, await sdJwt(), { origin: APP_ORIGIN, protocol, keyBinding: { nonce: "another-nonce" } }), pending, 18),
      /another request \(nonce\)/,
    );
  });

  it("VP1FinalVerifierInvalidKbJwtAud (oid4vp-1final-verifier-invalid-kb-jwt-aud): a key-binding JWT for another audience is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt(), {
          origin: APP_ORIGIN,
          protocol,
          keyBinding: { audience: "origin:https://verifier.example" },
        }),
        pending,
        18,
      ),
      /another origin \(aud\)/,
    );
    const again = await newRequest(18);
    // The audience of a redirect-based verifier (its client_id) is not this page's origin either.
    await refused(
      verify(
        await answer(again.requests, await sdJwt(), { origin: APP_ORIGIN, protocol, keyBinding: { audience: APP_ORIGIN } }),
        again.pending,
        18,
      ),
      /another origin \(aud\)/,
    );
  });

  it("VP1FinalVerifierKbJwtIatInPast (oid4vp-1final-verifier-kb-jwt-iat-in-past): a key-binding JWT issued a year ago is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt(), {
          origin: APP_ORIGIN,
          protocol,
          keyBinding: { issuedAt: Math.floor(Date.now() / 1000) - YEAR_SECONDS },
        }),
        pending,
        18,
      ),
      /\(iat\)/,
    );
  });

  it("VP1FinalVerifierKbJwtIatInFuture (oid4vp-1final-verifier-kb-jwt-iat-in-future): a key-binding JWT issued a year ahead is refused", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(
        await answer(requests, await sdJwt(), {
          origin: APP_ORIGIN,
          protocol,
          keyBinding: { issuedAt: Math.floor(Date.now() / 1000) + YEAR_SECONDS },
        }),
        pending,
        18,
      ),
      /\(iat\)/,
    );
  });

  it("VP1FinalVerifierMinimalCnfJwk (oid4vp-1final-verifier-minimal-cnf-jwk): a credential whose cnf.jwk holds only kty, crv, x and y approves", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await sdJwt();
    const payload = issuerPayload(credential) as { cnf: { jwk: Record<string, unknown> } };
    expect(Object.keys(payload.cnf.jwk).sort()).toStrictEqual(["crv", "kty", "x", "y"]);
    expect(await verify(await answer(requests, credential, { origin: APP_ORIGIN, protocol }), pending, 18)).toStrictEqual({
      outcome: "APPROVED",
    });
  });

  it("VP1FinalVerifierPresentCredentialWithoutStatus (oid4vp-1final-verifier-present-credential-without-status): a credential that names no status list approves", async () => {
    const { requests, pending } = await newRequest(18);
    const credential = await sdJwt();
    expect(issuerPayload(credential)).not.toHaveProperty("status");
    expect(await verify(await answer(requests, credential, { origin: APP_ORIGIN, protocol }), pending, 18)).toStrictEqual({
      outcome: "APPROVED",
    });
  });
});
