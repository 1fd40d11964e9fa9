// The verifier's own rules beyond the signatures (docs/digital-id.md, "What is verified" and "Work per
// answer"): COSE `crit`, an MSO signed in the future, SD-JWT VC times, the encryption the request
// advertises, strict CBOR, and the bounds on the work one answer may ask for, checked before any
// signature. Each answer comes from the test wallet with one knob turned; each rule has its positive
// control beside it.
import { describe, expect, it } from "vitest";
import { CborFloat, encodeCbor } from "../../src/digital-id/cbor";
import { asInteger, parse } from "../../src/digital-id/cbor-read";
import { readSign1 } from "../../src/digital-id/cose";
import { decryptEcdhEsJwe } from "../../src/digital-id/jwe";
import { EU_AGE, MDL, answer, documentSigner, issueMdoc, issueSdJwtVc, sealOpenId4Vp, type DigitalResponse } from "../wallet";
import { presentSdJwtVc } from "../wallet/sd-jwt-vc";
import { base64url, decode, encode, fromBase64url } from "../wallet/cbor";
import { APP_ORIGIN, newRequest, root, signerUnderTestRoot, verify, refused } from "./wallet-setup";

const MINUTE = 60_000;

const mdl = async (options: Partial<Parameters<typeof issueMdoc>[0]> = {}) =>
  issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true }, ...options });
const sdJwt = async (options: Partial<Parameters<typeof issueSdJwtVc>[0]> = {}) =>
  issueSdJwtVc({ signer: await documentSigner(await root(), { extendedKeyUsage: undefined }), ages: { 18: true }, ...options });
const openId4Vp = "openid4vp-v1-unsigned" as const;

describe("COSE crit (RFC 9052 §3.1)", () => {
  it("a crit naming a label the service does not understand is refused; one naming only alg and x5chain verifies", async () => {
    const unknown = await newRequest(18);
    await refused(
      verify(await answer(unknown.requests, await mdl({ critical: { labels: [99] } }), { origin: APP_ORIGIN }), unknown.pending, 18),
      /does not understand \(crit\)/,
    );
    const text = await newRequest(18);
    await refused(
      verify(
        await answer(text.requests, await mdl({ critical: { labels: ["reserved-by-no-one"] } }), { origin: APP_ORIGIN }),
        text.pending,
        18,
      ),
      /\(crit\)/,
    );
    const empty = await newRequest(18);
    await refused(
      verify(await answer(empty.requests, await mdl({ critical: { labels: [] } }), { origin: APP_ORIGIN }), empty.pending, 18),
      /\(crit\)/,
    );
    const unprotected = await newRequest(18);
    await refused(
      verify(
        await answer(unprotected.requests, await mdl({ critical: { labels: [1], unprotected: true } }), { origin: APP_ORIGIN }),
        unprotected.pending,
        18,
      ),
      /outside its protected header/,
    );
    const understood = await newRequest(18);
    expect(
      await verify(
        await answer(understood.requests, await mdl({ critical: { labels: [1, 33] } }), { origin: APP_ORIGIN }),
        understood.pending,
        18,
      ),
    ).toStrictEqual({ outcome: "APPROVED" });
  });

  it("readSign1 refuses crit on its own, before any key is involved", () => {
    const protectedBytes = encodeCbor(
      new Map<number, unknown>([
        [1, -7],
        [2, [42]],
      ]),
    );
    expect(() => readSign1([protectedBytes, new Map(), null, new Uint8Array(64)], "a signature")).toThrow(/\(crit\)/);
  });
});

describe("the MSO's validityInfo.signed", () => {
  it("later than now plus five minutes is refused; a minute ahead (clock skew) verifies", async () => {
    const future = await newRequest(18);
    await refused(
      verify(
        await answer(future.requests, await mdl({ signedAt: new Date(Date.now() + 10 * MINUTE) }), { origin: APP_ORIGIN }),
        future.pending,
        18,
      ),
      /signed in the future/,
    );
    const skewed = await newRequest(18);
    expect(
      await verify(
        await answer(skewed.requests, await mdl({ signedAt: new Date(Date.now() + MINUTE) }), { origin: APP_ORIGIN }),
        skewed.pending,
        18,
      ),
    ).toStrictEqual({ outcome: "APPROVED" });
  });
});

describe("SD-JWT VC times", () => {
  it("no exp, or exp as text, is refused; nbf or iat as text is refused; numeric ones verify", async () => {
    for (const [claims, reason] of [
      [{ exp: undefined }, /no numeric expiry \(exp\)/],
      [{ exp: "4102444800" }, /no numeric expiry \(exp\)/],
      [{ nbf: "0" }, /nbf is not a number/],
      [{ iat: "0" }, /iat is not a number/],
    ] as const) {
      const { requests, pending } = await newRequest(18);
      await refused(verify(await answer(requests, await sdJwt({ claims }), { origin: APP_ORIGIN }), pending, 18), reason);
    }
    const { requests, pending } = await newRequest(18);
    expect(
      await verify(
        await answer(requests, await sdJwt({ claims: { nbf: Math.floor(Date.now() / 1000) - 60 } }), { origin: APP_ORIGIN }),
        pending,
        18,
      ),
    ).toStrictEqual({ outcome: "APPROVED" });
  });
});

describe("ECDSA signatures with a high s", () => {
  it('are accepted: a signature and its twin with s replaced by n − s both verify, as Web Crypto does and wallets\' keystores need (docs/digital-id.md, "Who may sign a credential"); s + 1 does not', async () => {
    const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
    const { requests, pending } = await newRequest(18);
    const request = requests.find((r) => r.protocol === openId4Vp)!;
    const nonce = (request.data as { nonce: string }).nonce;
    const presentation = await presentSdJwtVc(await sdJwt(), { disclose: ["18"], nonce, audience: `origin:${APP_ORIGIN}` });
    const [head, payload, signature] = presentation.slice(presentation.lastIndexOf("~") + 1).split(".") as [string, string, string];
    const raw = fromBase64url(signature);
    const s = BigInt(`0x${Array.from(raw.subarray(32), (b) => b.toString(16).padStart(2, "0")).join("")}`);
    const withS = (value: bigint) => {
      const out = raw.slice();
      out.set(
        Uint8Array.from(value.toString(16).padStart(64, "0").match(/../g)!, (h) => parseInt(h, 16)),
        32,
      );
      return `${presentation.slice(0, presentation.lastIndexOf("~") + 1)}${head}.${payload}.${base64url(out)}`;
    };
    const decide = async (text: string) =>
      verify(await sealOpenId4Vp(request, { vp_token: { sd_jwt_vc: [text] } }), pending, 18).then(
        (o) => o.outcome,
        (e: { code: string }) => e.code,
      );
    expect(await decide(withS(s + 1n))).toBe("DIGITAL_ID_INVALID");
    expect(await decide(withS(P256_ORDER - s))).toBe("APPROVED");
  });
});

describe("the response encryption", () => {
  it("only A128GCM, which the request advertises, is accepted", async () => {
    const { requests, pending } = await newRequest(18);
    const request = requests.find((r) => r.protocol === openId4Vp)!;
    const good = await answer(requests, await mdl(), { origin: APP_ORIGIN, protocol: openId4Vp });
    // The same vp_token, encrypted with A256GCM: refused before it is decrypted.
    const content = JSON.parse(new TextDecoder().decode(await decryptForTest(good, pending)));
    await refused(verify(await sealOpenId4Vp(request, content, "A256GCM"), pending, 18), /not encrypted with ECDH-ES and AES-GCM/);
    expect(await verify(await sealOpenId4Vp(request, content, "A128GCM"), pending, 18)).toStrictEqual({ outcome: "APPROVED" });
  });
});

/** The plaintext of an OpenID4VP answer, through the service's own JWE code and the request's pending key. */
async function decryptForTest(response: DigitalResponse, pending: unknown): Promise<Uint8Array> {
  return decryptEcdhEsJwe(
    response.data.response as string,
    (pending as { openId4Vp: { privateKey: JsonWebKey & { kid: string } } }).openId4Vp.privateKey,
  );
}

describe("strict CBOR", () => {
  it("indefinite lengths are refused, in arrays, maps, and byte and text strings", () => {
    for (const bytes of [
      [0x9f, 0x01, 0xff],
      [0xbf, 0x61, 0x61, 0x01, 0xff],
      [0x5f, 0x41, 0x00, 0xff],
      [0x7f, 0x61, 0x61, 0xff],
    ]) {
      expect(() => parse(Uint8Array.from(bytes), "answer")).toThrow(/not well-formed CBOR/);
    }
    expect(parse(Uint8Array.from([0x81, 0x01]), "answer")).toStrictEqual([1]);
  });

  it("a float is never read as an integer: a DeviceResponse status of -0.0 or 0.0 is refused", async () => {
    expect(parse(Uint8Array.from([0xf9, 0x80, 0x00]), "answer")).toBeInstanceOf(CborFloat);
    expect(() => asInteger(parse(Uint8Array.from([0xf9, 0x80, 0x00]), "answer"), "status")).toThrow(/not an integer/);
    expect(() => asInteger(parse(Uint8Array.from([0xf9, 0x00, 0x00]), "answer"), "status")).toThrow(/not an integer/);
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl(), { origin: APP_ORIGIN, protocol: openId4Vp });
    const content = JSON.parse(new TextDecoder().decode(await decryptForTest(response, pending))) as { vp_token: { mdl: [string] } };
    const deviceResponse = decode(fromBase64url(content.vp_token.mdl[0])) as Map<string, unknown>;
    const request = requests.find((r) => r.protocol === openId4Vp)!;
    // `status` is the map's last entry: its value 0x00 becomes the half float -0.0 (0xf9 0x80 0x00).
    const integerStatus = encode(deviceResponse);
    expect([...integerStatus.slice(-8)]).toStrictEqual([0x66, ...new TextEncoder().encode("status"), 0x00]);
    for (const float of [
      [0xf9, 0x80, 0x00],
      [0xf9, 0x00, 0x00],
    ]) {
      const bytes = Uint8Array.from([...integerStatus.slice(0, -1), ...float]);
      const again = await newRequest(18);
      const sealed = await sealOpenId4Vp(again.requests.find((r) => r.protocol === openId4Vp)!, { vp_token: { mdl: [base64url(bytes)] } });
      await refused(verify(sealed, again.pending, 18), /status is not an integer/);
    }
    expect(await verify(await sealOpenId4Vp(request, { vp_token: { mdl: [base64url(integerStatus)] } }), pending, 18)).toStrictEqual({
      outcome: "APPROVED",
    });
  });

  it("44 KB of nested junk is refused by the shape walk, whatever it nests", () => {
    // A map of 4,000 one-element arrays: well-formed, shallow, and more items than any mdoc structure holds.
    const items = [0xb9, 0x0f, 0xa0];
    for (let key = 0; key < 4000; key++) items.push(0x19, key >> 8, key & 0xff, 0x81, 0x00);
    expect(items.length).toBeGreaterThan(20_000);
    expect(() => parse(Uint8Array.from(items), "answer")).toThrow(/not well-formed CBOR/);
    const deep = [...new Array(40).fill(0x81), 0x00];
    expect(() => parse(Uint8Array.from(deep), "answer")).toThrow(/not well-formed CBOR/);
  });
});

describe("work per answer is bounded before any signature is checked", () => {
  it("two documents of one doctype are refused (Annex C and OpenID4VP); one of each doctype asked verifies", async () => {
    // The copies carry a forged issuer signature: the bound, not the signature, refuses them.
    const forger = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const forged = await mdl({ issuerAuthKey: forger.privateKey });
    for (const protocol of ["org-iso-mdoc", openId4Vp] as const) {
      const { requests, pending } = await newRequest(18);
      await refused(
        verify(await answer(requests, forged, { origin: APP_ORIGIN, protocol, copies: 2 }), pending, 18),
        /more than one document of a doctype/,
      );
    }
    const { requests, pending } = await newRequest(18);
    expect(await verify(await answer(requests, await mdl(), { origin: APP_ORIGIN, copies: 1 }), pending, 18)).toStrictEqual({
      outcome: "APPROVED",
    });
    const euAge = await newRequest(18);
    expect(
      await verify(
        await answer(euAge.requests, await issueMdoc({ kind: EU_AGE, signer: await signerUnderTestRoot(), ages: { 18: true } }), {
          origin: APP_ORIGIN,
        }),
        euAge.pending,
        18,
      ),
    ).toStrictEqual({ outcome: "APPROVED" });
  });

  it("more than 16 issuer-signed items in a document are refused; 16 verify", async () => {
    const forger = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const elements = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`element_${i}`, "x"]));
    const many = await mdl({ otherElements: elements(16), issuerAuthKey: forger.privateKey });
    const { requests, pending } = await newRequest(18);
    const disclose = ["age_over_18", ...Object.keys(elements(16))];
    await refused(verify(await answer(requests, many, { origin: APP_ORIGIN, disclose }), pending, 18), /more than 16 issuer-signed items/);
    const enough = await mdl({ otherElements: elements(15) });
    const ok = await newRequest(18);
    expect(
      await verify(await answer(ok.requests, enough, { origin: APP_ORIGIN, disclose: disclose.slice(0, 16) }), ok.pending, 18),
    ).toStrictEqual({ outcome: "APPROVED" });
  });

  it("more than 64 disclosures in an SD-JWT VC are refused before any signature; 64 verify", async () => {
    const ages = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [18 + i, true]));
    const forger = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const { requests, pending } = await newRequest(18);
    const tooMany = await sdJwt({ ages: ages(65), signingKey: forger.privateKey });
    await refused(
      verify(await answer(requests, tooMany, { origin: APP_ORIGIN, disclose: Object.keys(ages(65)) }), pending, 18),
      /more than 64 disclosures/,
    );
    const ok = await newRequest(18);
    expect(
      await verify(
        await answer(ok.requests, await sdJwt({ ages: ages(64) }), { origin: APP_ORIGIN, disclose: Object.keys(ages(64)) }),
        ok.pending,
        18,
      ),
    ).toStrictEqual({ outcome: "APPROVED" });
  });
});
