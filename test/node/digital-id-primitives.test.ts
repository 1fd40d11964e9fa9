// The verifier's own primitives, each check and message pinned, where the answers of the other tests
// reach them only through a later check that would refuse anyway (what StrykerJS found surviving):
// the DER reader (src/digital-id/der.ts), the ECDSA helpers (ecdsa.ts) and COSE_Sign1 reading (cose.ts).
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/errors";
import { Tagged, encodeCbor } from "../../src/digital-id/cbor";
import { importCoseKey, readSign1, verifyAttachedSign1, verifyDetachedSign1, x5chain } from "../../src/digital-id/cose";
import { children, expect as expectTag, oid, parseDer, time, UNIVERSAL } from "../../src/digital-id/der";
import { derSignatureToRaw, importEcJwk, importSpki } from "../../src/digital-id/ecdsa";

// Credentials are issued and answers verified on Web Crypto: seconds, not milliseconds, on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => new TextEncoder().encode(value);
const item = (tag: number, contents: Uint8Array) => bytes(tag, contents.length, ...contents);

describe("der.ts", () => {
  it("refuses what is not definite-length DER, naming why", () => {
    expect(() => parseDer(bytes())).toThrow("DER: bad or long-form tag");
    expect(() => parseDer(bytes(0x1f, 0x01, 0x00))).toThrow("DER: bad or long-form tag");
    expect(() => parseDer(bytes(0x04, 0x80, 0x00, 0x00))).toThrow("DER: bad length");
    expect(() => parseDer(bytes(0x04))).toThrow("DER: bad length");
    expect(() => parseDer(bytes(0x04, 0x84, 0, 0, 0, 1, 0))).toThrow("DER: length too large");
    expect(() => parseDer(bytes(0x04, 0x81, 0x05, 1, 2, 3, 4, 5))).toThrow("DER: length not minimal");
    expect(() => parseDer(bytes(0x04, 0x81))).toThrow("DER: length not minimal");
    expect(() => parseDer(bytes(0x04, 0x03, 1, 2))).toThrow("DER: truncated");
    expect(() => parseDer(bytes(0x04, 0x01, 1, 2))).toThrow("DER: trailing bytes");
    expect(() => children(parseDer(bytes(0x04, 0x01, 1)))).toThrow("DER: not constructed");
    expect(() => expectTag(parseDer(bytes(0x04, 0x01, 1)), UNIVERSAL.INTEGER)).toThrow("DER: expected universal tag 2");
    expect(() => expectTag(parseDer(bytes(0x82, 0x01, 1)), UNIVERSAL.INTEGER)).toThrow("DER: expected universal tag 2");
    expect(() => expectTag(undefined, UNIVERSAL.INTEGER)).toThrow("DER: expected universal tag 2");
  });

  it("reads long-form lengths of up to three bytes and the items inside a SEQUENCE", () => {
    expect(parseDer(Uint8Array.from([0x04, 0x81, 0x80, ...new Uint8Array(128)])).contents.length).toBe(128);
    const threeByteLength = new Uint8Array(0x10000);
    expect(parseDer(Uint8Array.from([0x04, 0x83, 0x01, 0x00, 0x00, ...threeByteLength])).contents.length).toBe(0x10000);
    const long = new Uint8Array(200).fill(7);
    expect(parseDer(Uint8Array.from([0x04, 0x81, 200, ...long])).contents).toStrictEqual(long);
    const sequence = parseDer(bytes(0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0x09));
    expect(sequence).toMatchObject({ tagClass: 0, constructed: true, tag: 16 });
    expect(children(sequence).map((child) => [child.tag, child.constructed, [...child.contents]])).toStrictEqual([
      [2, false, [5]],
      [4, false, [9]],
    ]);
    expect(parseDer(bytes(0xa3, 0x00))).toMatchObject({ tagClass: 2, constructed: true, tag: 3 });
  });

  it("reads object identifiers under 0, 1 and 2", () => {
    expect(oid(parseDer(bytes(0x06, 0x03, 0x55, 0x1d, 0x13)))).toBe("2.5.29.19");
    expect(oid(parseDer(bytes(0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07)))).toBe("1.2.840.10045.3.1.7");
    expect(oid(parseDer(bytes(0x06, 0x02, 0x27, 0x01)))).toBe("0.39.1");
    expect(oid(parseDer(bytes(0x06, 0x02, 0x50, 0x01)))).toBe("2.0.1");
    expect(oid(parseDer(bytes(0x06, 0x02, 0x81, 0x00)))).toBe("2.48");
  });

  it("reads UTCTime (1950-2049) and GeneralizedTime, and refuses any other form", () => {
    expect(time(parseDer(item(0x17, text("491231235958Z"))))).toStrictEqual(new Date("2049-12-31T23:59:58Z"));
    expect(time(parseDer(item(0x17, text("500101000000Z"))))).toStrictEqual(new Date("1950-01-01T00:00:00Z"));
    expect(time(parseDer(item(0x18, text("20260315120030Z"))))).toStrictEqual(new Date("2026-03-15T12:00:30Z"));
    for (const [tag, value] of [
      [0x17, "4912312359Z"],
      [0x17, "491231235958"],
      [0x17, "X491231235958Z"],
      [0x17, "491231235958Z0"],
      [0x17, "20260315120030Z"],
      [0x18, "260315120030Z"],
      [0x18, "20260315120030ZZ"],
      [0x18, "x20260315120030Z"],
      [0x18, "2026a315120030Z"],
    ] as const) {
      expect(() => time(parseDer(item(tag, text(value)))), value).toThrow("DER: time is not in the form RFC 5280 requires");
    }
    expect(() => time(parseDer(item(0x04, text("20260315120030Z"))))).toThrow("DER: expected a time");
    expect(() => time(parseDer(item(0x98, text("20260315120030Z"))))).toThrow("DER: expected a time");
    expect(() => time(undefined)).toThrow("DER: expected a time");
  });
});

describe("ecdsa.ts", () => {
  it("derSignatureToRaw pads and trims integers to the curve's size and refuses any other shape", () => {
    const der = bytes(0x30, 0x08, 0x02, 0x02, 0x00, 0x81, 0x02, 0x02, 0x01, 0x02);
    const raw = derSignatureToRaw(der, "P-256");
    expect(raw.length).toBe(64);
    expect(raw[31]).toBe(0x81);
    expect([raw[62], raw[63]]).toStrictEqual([0x01, 0x02]);
    expect(derSignatureToRaw(bytes(0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00), "P-256")).toStrictEqual(new Uint8Array(64));
    expect(() => derSignatureToRaw(bytes(0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01), "P-256")).toThrow(
      "ECDSA signature is not two integers",
    );
    expect(() =>
      derSignatureToRaw(Uint8Array.from([0x30, 0x26, 0x02, 0x21, ...new Uint8Array(33).fill(1), 0x02, 0x01, 0x01]), "P-256"),
    ).toThrow("ECDSA integer too long");
  });

  it("imports keys for verification only, never exportable", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const spki = new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer);
    const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
    for (const key of [await importSpki(spki, "P-256"), await importEcJwk({ crv: "P-256", x: jwk.x!, y: jwk.y! })]) {
      expect(key.extractable).toBe(false);
      expect(key.usages).toStrictEqual(["verify"]);
    }
  });
});

describe("cose.ts", () => {
  const protectedEs256 = encodeCbor(new Map([[1, -7]]));
  const sign1 = (payload: Uint8Array | null, unprotectedHeader = new Map<number, unknown>()) => [
    protectedEs256,
    unprotectedHeader,
    payload,
    new Uint8Array(64),
  ];
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return (error as ApiError).message;
    }
    throw new Error("not refused");
  };

  it("reads COSE_Sign1 and its tagged form (tag 18), nothing else, naming the part at fault", () => {
    expect(readSign1(new Tagged(18, sign1(null) as never) as never, "the x").payload).toBeNull();
    expect(refusal(() => readSign1(new Tagged(98, sign1(null) as never) as never, "the x"))).toMatch(/the x is not an array/);
    expect(refusal(() => readSign1([protectedEs256, new Map(), null] as never, "the x"))).toMatch(/the x is not a COSE_Sign1/);
    expect(refusal(() => readSign1([new Map([[1, -7]]), new Map(), null, new Uint8Array(64)] as never, "the x"))).toMatch(
      /the x protected header is not a byte string/,
    );
    expect(refusal(() => readSign1([bytes(0xff), new Map(), null, new Uint8Array(64)] as never, "the x"))).toMatch(
      /the x protected header is not well-formed CBOR/,
    );
    expect(refusal(() => readSign1([new Uint8Array(0), new Map([[1, -7]]), null, new Uint8Array(64)] as never, "the x"))).toMatch(
      /the x algorithm is not an integer/,
    );
    expect(refusal(() => readSign1([encodeCbor(new Map([[1, -8]])), new Map(), null, new Uint8Array(64)] as never, "the x"))).toMatch(
      /the x uses an algorithm this service does not accept/,
    );
    expect(refusal(() => readSign1([protectedEs256, [], null, new Uint8Array(64)] as never, "the x"))).toMatch(
      /the x unprotected header is not a map/,
    );
    expect(refusal(() => readSign1([protectedEs256, new Map(), "text", new Uint8Array(64)] as never, "the x"))).toMatch(
      /the x payload is not a byte string/,
    );
    expect(refusal(() => readSign1([protectedEs256, new Map(), null, "text"] as never, "the x"))).toMatch(
      /the x signature is not a byte string/,
    );
  });

  it("x5chain: one certificate as bytes, several as an array, none refused", () => {
    const one = new Uint8Array([1]);
    expect(x5chain(readSign1(sign1(null, new Map([[33, one]])) as never, "s"), "s")).toStrictEqual([one]);
    expect(x5chain(readSign1(sign1(null, new Map([[33, [one, bytes(2)]]])) as never, "s"), "s")).toStrictEqual([one, bytes(2)]);
    expect(refusal(() => x5chain(readSign1(sign1(null, new Map([[33, []]])) as never, "s"), "the s"))).toMatch(
      /the s carries no certificate \(x5chain\)/,
    );
    expect(refusal(() => x5chain(readSign1(sign1(null, new Map([[33, ["x"]]])) as never, "s"), "the s"))).toMatch(
      /the s x5chain is not a byte string/,
    );
    expect(refusal(() => x5chain(readSign1(sign1(null) as never, "s"), "the s"))).toMatch(/x5chain/);
  });

  it("an attached signature needs a payload; any signature needs a key on its algorithm's curve", async () => {
    const p256 = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const p384 = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const payload = bytes(1, 2, 3);
    const toBeSigned = encodeCbor(["Signature1", protectedEs256, new Uint8Array(0), payload]);
    const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, p256.privateKey, toBeSigned));
    const attached = readSign1([protectedEs256, new Map(), payload, signature] as never, "s");
    expect(await verifyAttachedSign1(attached, p256.publicKey)).toBe(true);
    expect(await verifyAttachedSign1(attached, p384.publicKey)).toBe(false);
    expect(await verifyAttachedSign1(readSign1([protectedEs256, new Map(), null, signature] as never, "s"), p256.publicKey)).toBe(false);
    // A signature over the Sig_structure with a nil payload vouches for nothing: refused, not verified.
    const overNil = new Uint8Array(
      await crypto.subtle.sign(
        { name: "ECDSA", hash: "SHA-256" },
        p256.privateKey,
        encodeCbor(["Signature1", protectedEs256, new Uint8Array(0), null]),
      ),
    );
    expect(await verifyAttachedSign1(readSign1([protectedEs256, new Map(), null, overNil] as never, "s"), p256.publicKey)).toBe(false);
    // ES256 in the header with a P-384 key that signed with SHA-256: the algorithm names the curve too.
    const confused = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, p384.privateKey, toBeSigned));
    expect(await verifyAttachedSign1(readSign1([protectedEs256, new Map(), payload, confused] as never, "s"), p384.publicKey)).toBe(false);
    const detached = readSign1([protectedEs256, new Map(), null, signature] as never, "s");
    expect(await verifyDetachedSign1(detached, p256.publicKey, payload, "s")).toBe(true);
    expect(await verifyDetachedSign1(detached, p384.publicKey, payload, "s")).toBe(false);
    await expect(verifyDetachedSign1(attached, p256.publicKey, payload, "the s")).rejects.toThrow(/the s's payload must be detached/);
  });

  it("importCoseKey: an EC2 key on P-256/384/521 only, a valid point only, naming the part at fault", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
    const b64 = (value: string) => Uint8Array.from(atob(value.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const coseKey = (kty: number, crv: number, x = b64(jwk.x!), y = b64(jwk.y!)) =>
      new Map<number, unknown>([
        [1, kty],
        [-1, crv],
        [-2, x],
        [-3, y],
      ]);
    expect((await importCoseKey(coseKey(2, 2) as never, "k")).algorithm).toMatchObject({ namedCurve: "P-384" });
    await expect(importCoseKey(coseKey(3, 2) as never, "the k")).rejects.toThrow(/the k is not an EC key on an accepted curve/);
    await expect(importCoseKey(coseKey(2, 8) as never, "the k")).rejects.toThrow(/the k is not an EC key on an accepted curve/);
    await expect(importCoseKey(coseKey(2, 2, new Uint8Array(48), new Uint8Array(48)) as never, "the k")).rejects.toThrow(
      /the k is not a valid public key/,
    );
    await expect(importCoseKey(coseKey(2, 2, "x" as never) as never, "the k")).rejects.toThrow(/the k is not a valid public key/);
    await expect(
      importCoseKey(
        new Map<number, unknown>([
          [1, 2],
          [-1, "P-384"],
        ]) as never,
        "the k",
      ),
    ).rejects.toThrow(/the k curve is not an integer/);
    await expect(
      importCoseKey(
        new Map<number, unknown>([
          [1, "EC2"],
          [-1, 2],
        ]) as never,
        "the k",
      ),
    ).rejects.toThrow(/the k type is not an integer/);
  });
});
