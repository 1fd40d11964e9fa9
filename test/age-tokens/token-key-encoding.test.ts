// The token key as a Privacy Pass directory lists it (src/domain/age-tokens/token-key-encoding.ts): the
// rsaEncryption SubjectPublicKeyInfo Web Crypto exports, rewritten with the RSASSA-PSS algorithm of
// RFC 9578 §6.5, and what the rewrite refuses. The DER here is written out by hand.
import { describe, expect, it } from "vitest";
import { toRsassaPssSpki, tokenKeyId } from "../../src/domain/age-tokens/token-key-encoding";
import { hex, toHexString } from "./rfc-client";

const RSA_ENCRYPTION = "300d06092a864886f70d0101010500";
const RSASSA_PSS_SHA384 =
  "303d06092a864886f70d01010a3030a00d300b0609608648016503040202a11a301806092a864886f70d010108300b0609608648016503040202a203020130";

/** A DER length: short form under 0x80, else 0x81/0x82 and the octets. */
const derLength = (length: number) =>
  length < 0x80
    ? length.toString(16).padStart(2, "0")
    : length < 0x100
      ? `81${length.toString(16).padStart(2, "0")}`
      : `82${length.toString(16).padStart(4, "0")}`;
const sequence = (body: string) => `30${derLength(body.length / 2)}${body}`;
/** A BIT STRING of `bytes` bytes of key material (the rewrite keeps it as it is, whatever it holds). */
const bitString = (bytes: number) => `03${derLength(bytes + 1)}00${"ab".repeat(bytes)}`;
const spki = (keyBytes: number, algorithm = RSA_ENCRYPTION) => hex(sequence(algorithm + bitString(keyBytes)));

describe("toRsassaPssSpki", () => {
  it("swaps the algorithm and keeps the key's bits, in the short and the long length forms", () => {
    for (const keyBytes of [4, 60, 61, 62, 190, 270]) {
      const out = toRsassaPssSpki(spki(keyBytes));
      expect(toHexString(out)).toBe(sequence(RSASSA_PSS_SHA384 + bitString(keyBytes)));
    }
  });

  it("writes a body of exactly 128 bytes in the long form (0x80 is not a short length)", () => {
    // 63 bytes of algorithm and a 65-byte BIT STRING (2 + 1 + 62): the body is 128 bytes.
    expect(toHexString(toRsassaPssSpki(spki(62))).slice(0, 6)).toBe("308180");
  });

  it("rewrites a key Web Crypto exports, and its id is the SHA-256 of the rewrite", async () => {
    const pair = (await crypto.subtle.generateKey(
      { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-384" },
      true,
      ["sign", "verify"],
    )) as CryptoKeyPair;
    const exported = new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer);
    const out = toRsassaPssSpki(exported);
    expect(toHexString(out)).toContain(RSASSA_PSS_SHA384);
    expect(toHexString(out).endsWith(toHexString(exported.slice(4 + RSA_ENCRYPTION.length / 2)))).toBe(true);
    expect(await tokenKeyId(out)).toEqual(new Uint8Array(await crypto.subtle.digest("SHA-256", out)));
  });

  it.each([
    ["another outer tag", hex(`31${toHexString(spki(4)).slice(2)}`)],
    ["a trailing byte", hex(`${toHexString(spki(4))}00`)],
    ["a byte missing", spki(4).slice(0, -1)],
    // 0x80 is BER's indefinite length: here it would read as 128 bytes, which the input is.
    ["an indefinite length", hex(`3080${RSA_ENCRYPTION}${bitString(128 - RSA_ENCRYPTION.length / 2 - 3)}`)],
  ])("refuses %s as not a DER SubjectPublicKeyInfo", (_, input) => {
    expect(() => toRsassaPssSpki(input)).toThrow(new Error("not a DER SubjectPublicKeyInfo"));
  });

  it.each([
    ["an EC key's algorithm", "301306072a8648ce3d020106082a8648ce3d030107"],
    ["rsaEncryption without its NULL parameters", "300b06092a864886f70d010101"],
    ["the RSASSA-PSS algorithm already", RSASSA_PSS_SHA384],
  ])("refuses %s as not an rsaEncryption SubjectPublicKeyInfo", (_, algorithm) => {
    expect(() => toRsassaPssSpki(spki(4, algorithm))).toThrow(new Error("not an rsaEncryption SubjectPublicKeyInfo"));
  });
});
