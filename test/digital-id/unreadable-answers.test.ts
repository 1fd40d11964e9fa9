// Whatever a wallet (or anyone with a session's link) sends, every entry point that reads an answer
// refuses it with DIGITAL_ID_INVALID, or VALIDATION_FAILED for a body that is not `{protocol, data}`:
// never a TypeError, a RangeError or a DOMException, which the route would answer with an uncounted 500.
// Each parser is checked on its own (not only behind the boundary in response.ts), with random bytes,
// random text of the right alphabet, random JSON and CBOR of the right outer shape, and valid answers
// with bytes changed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors";
import { readBase64, readBase64Url } from "../../src/digital-id/base64";
import { encodeCbor, Tagged, type Cbor } from "../../src/digital-id/cbor";
import { parse } from "../../src/digital-id/cbor-read";
import { verifyChain } from "../../src/digital-id/certificate-chain";
import { readSign1 } from "../../src/digital-id/cose";
import { decryptEcdhEsJwe } from "../../src/digital-id/jwe";
import { verifyDeviceResponse } from "../../src/digital-id/mdoc-document";
import { verifySdJwtVc } from "../../src/digital-id/sd-jwt-vc";
import { newEncryptionKey } from "../../src/digital-id/keys";
import { MDL, answer, issueMdoc, sealOpenId4Vp } from "../wallet";
import { deviceResponse } from "../wallet/mdoc";
import { APP_ORIGIN, anchors, newRequest, signerUnderTestRoot, verify } from "./wallet-setup";

const RUNS = 200;

/** "accepted", the ApiError's code, or "unhandled <name>" for anything else. */
async function outcome(run: () => unknown): Promise<string> {
  try {
    await run();
    return "accepted";
  } catch (error) {
    return error instanceof ApiError ? error.code : `unhandled ${(error as Error)?.name ?? typeof error}: ${(error as Error)?.message}`;
  }
}

const refusedOnly = (result: string) => expect(result).toBe("DIGITAL_ID_INVALID");
const alphabet = (chars: string, maxLength = 120) => fc.string({ unit: fc.constantFrom(...chars.split("")), maxLength });
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const jsonPart = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value) ?? "null"));

/** CBOR values of every kind the decoder yields, maps keyed as mdoc structures are (text and small integers). */
const cborValue: fc.Arbitrary<Cbor> = fc.letrec<{ value: Cbor }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.integer(),
    fc.string({ maxLength: 12 }),
    fc.boolean(),
    fc.constant(null),
    fc.uint8Array({ maxLength: 24 }),
    fc.array(tie("value"), { maxLength: 5 }),
    fc
      .uniqueArray(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              "version",
              "status",
              "documents",
              "docType",
              "issuerSigned",
              "deviceSigned",
              "nameSpaces",
              "issuerAuth",
              "deviceAuth",
              "deviceSignature",
            ),
            fc.integer({ min: -4, max: 40 }),
          ),
          tie("value"),
        ),
        { maxLength: 5, selector: ([key]) => key },
      )
      .map((entries) => new Map<string | number, Cbor>(entries)),
    fc.tuple(fc.constantFrom(0, 18, 24, 1004), tie("value")).map(([tag, value]) => new Tagged(tag, value)),
  ),
})).value;

describe("every parser of an answer refuses what it cannot read with DIGITAL_ID_INVALID", () => {
  it("base64url and base64: any text of the alphabet (4n+1 characters among them) is bytes or refused", async () => {
    await fc.assert(
      fc.asyncProperty(alphabet(BASE64URL, 40), alphabet("ABCDEFabcdef0123456789+/=", 40), async (url, standard) => {
        expect(["accepted", "DIGITAL_ID_INVALID"]).toContain(await outcome(() => readBase64Url(url, "a field")));
        expect(["accepted", "DIGITAL_ID_INVALID"]).toContain(await outcome(() => readBase64(standard, "a field")));
      }),
      { seed: 0x1bf, numRuns: RUNS * 5 },
    );
    refusedOnly(await outcome(() => readBase64Url("AAAAA", "a field")));
    refusedOnly(await outcome(() => readBase64("A", "a field")));
    refusedOnly(await outcome(() => decryptEcdhEsJwe("AAAAA..AAAA.AAAA.AAAA", { kty: "EC", crv: "P-256", x: "", y: "", d: "" })));
  });

  it("CBOR: random bytes are well-formed or refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        const result = await outcome(() => parse(bytes, "answer"));
        expect(["accepted", "DIGITAL_ID_INVALID"]).toContain(result);
      }),
      { seed: 0x1c0, numRuns: RUNS * 5 },
    );
  });

  it("COSE_Sign1: any CBOR value, at the top or in a four-element array, is read or refused", async () => {
    await fc.assert(
      fc.asyncProperty(cborValue, fc.array(cborValue, { minLength: 4, maxLength: 4 }), async (value, parts) => {
        expect(["accepted", "DIGITAL_ID_INVALID"]).toContain(await outcome(() => readSign1(value, "the signature")));
        expect(["accepted", "DIGITAL_ID_INVALID"]).toContain(await outcome(() => readSign1(parts as Cbor[], "the signature")));
      }),
      { seed: 0x1c1, numRuns: RUNS },
    );
  });

  it("DeviceResponse: random bytes, random CBOR, and a valid answer with bytes changed", async () => {
    const mdoc = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    const { requests } = await newRequest(18);
    const sealed = await answer(requests, mdoc, { origin: APP_ORIGIN, protocol: "openid4vp-v1-unsigned" });
    expect(sealed.data.response).toBeTypeOf("string");
    const transcript = [null, null, ["OpenID4VPDCAPIHandover", new Uint8Array(32)]];
    const trust = anchors();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), cborValue, async (bytes, value) => {
        refusedOnly(await outcome(() => verifyDeviceResponse(bytes, transcript, trust, new Date())));
        refusedOnly(await outcome(() => verifyDeviceResponse(encodeCbor(value), transcript, trust, new Date())));
        const wrapped = new Map<string, unknown>([
          ["version", "1.0"],
          ["status", 0],
          ["documents", [value]],
        ]);
        refusedOnly(await outcome(() => verifyDeviceResponse(encodeCbor(wrapped), transcript, trust, new Date())));
      }),
      { seed: 0x1c2, numRuns: RUNS },
    );
  });

  it("SD-JWT VC: random text, and JWTs whose header and payload are any JSON", async () => {
    const trust = anchors();
    const binding = { nonce: "n", audience: `origin:${APP_ORIGIN}` };
    await fc.assert(
      fc.asyncProperty(
        alphabet(`${BASE64URL}.~`, 200),
        fc.jsonValue(),
        fc.jsonValue(),
        fc.array(fc.oneof(fc.string({ maxLength: 8 }), alphabet("ABCDEFabcdef0123456789+/=", 8)), { maxLength: 3 }),
        async (text, header, payload, x5c) => {
          refusedOnly(await outcome(() => verifySdJwtVc(text, binding, trust, new Date())));
          refusedOnly(
            await outcome(() =>
              verifySdJwtVc(
                `${jsonPart(header)}.${jsonPart(payload)}.AAAA~${jsonPart(payload)}~${jsonPart(header)}.${jsonPart(payload)}.AAAA`,
                binding,
                trust,
                new Date(),
              ),
            ),
          );
          const withCertificates = { alg: "ES256", typ: "dc+sd-jwt", x5c };
          refusedOnly(
            await outcome(() => verifySdJwtVc(`${jsonPart(withCertificates)}.${jsonPart(payload)}.AAAA~a.b.c`, binding, trust, new Date())),
          );
        },
      ),
      { seed: 0x1c3, numRuns: RUNS },
    );
  });

  it("JWE: random text, and protected headers that are any JSON", async () => {
    const key = { ...(await newEncryptionKey()), kid: "k" };
    await fc.assert(
      fc.asyncProperty(alphabet(`${BASE64URL}.`, 200), fc.jsonValue(), fc.jsonValue(), async (text, header, epk) => {
        refusedOnly(await outcome(() => decryptEcdhEsJwe(text, key)));
        refusedOnly(await outcome(() => decryptEcdhEsJwe(`${jsonPart(header)}..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA`, key)));
        const shaped = { alg: "ECDH-ES", enc: "A128GCM", kid: "k", epk };
        refusedOnly(await outcome(() => decryptEcdhEsJwe(`${jsonPart(shaped)}..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA`, key)));
      }),
      { seed: 0x1c4, numRuns: RUNS },
    );
  });

  it("certificate chains: random DER bytes", async () => {
    const trust = anchors();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 120 }), { minLength: 1, maxLength: 4 }), async (chain) => {
        refusedOnly(await outcome(() => verifyChain(chain as Uint8Array<ArrayBuffer>[], trust, new Date(), "mdoc")));
      }),
      { seed: 0x1c5, numRuns: RUNS },
    );
  });

  it("the whole answer: any data of the right shape for either protocol, and a valid encrypted answer around any JSON", async () => {
    const { requests, pending } = await newRequest(18);
    const openId4Vp = requests.find((request) => request.protocol === "openid4vp-v1-unsigned")!;
    await fc.assert(
      fc.asyncProperty(alphabet(BASE64URL, 200), alphabet(`${BASE64URL}.`, 200), fc.jsonValue(), async (annexC, jwe, content) => {
        refusedOnly(await outcome(() => verify({ protocol: "org-iso-mdoc", data: { response: annexC || "A" } }, pending, 18)));
        refusedOnly(await outcome(() => verify({ protocol: "openid4vp-v1-unsigned", data: { response: jwe || "." } }, pending, 18)));
        refusedOnly(await outcome(async () => verify(await sealOpenId4Vp(openId4Vp, content), pending, 18)));
        refusedOnly(await outcome(async () => verify(await sealOpenId4Vp(openId4Vp, { vp_token: content }), pending, 18)));
      }),
      { seed: 0x1c6, numRuns: RUNS / 2 },
    );
  });

  it("an exception anywhere in checking (here, a trust anchor the verifier cannot use) is DIGITAL_ID_INVALID without its text", async () => {
    const { requests, pending } = await newRequest(18);
    const mdoc = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    const broken = [{ subject: new Uint8Array(0) }] as unknown as ReturnType<typeof anchors>;
    const error = await verify(await answer(requests, mdoc, { origin: APP_ORIGIN }), pending, 18, broken).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "DIGITAL_ID_INVALID", message: "The digital ID did not verify: the answer could not be read." });
  });

  it("a body of another shape is VALIDATION_FAILED, not counted", async () => {
    const { pending } = await newRequest(18);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.jsonValue(), async (protocol, data) => {
        const result = await outcome(() => verify({ protocol, data } as never, pending, 18));
        expect(["VALIDATION_FAILED", "DIGITAL_ID_INVALID"]).toContain(result);
      }),
      { seed: 0x1c7, numRuns: RUNS },
    );
  });

  it("a valid mdoc answer with any one byte changed is refused, never an unhandled error", async () => {
    const mdoc = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    const trust = anchors();
    const transcript = [null, null, ["dcapi", new Uint8Array(32)]];
    const bytes = await deviceResponse(mdoc, transcript, { disclose: ["age_over_18"] });
    expect(await outcome(() => verifyDeviceResponse(bytes, transcript, trust, new Date()))).toBe("accepted");
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
        const changed = bytes.slice();
        changed[at]! ^= xor;
        expect(["accepted", "DIGITAL_ID_INVALID"]).toContain(
          await outcome(() => verifyDeviceResponse(changed, transcript, trust, new Date())),
        );
      }),
      { seed: 0x1c8, numRuns: RUNS * 2 },
    );
  });
});
