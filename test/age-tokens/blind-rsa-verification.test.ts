// What of src/domain/age-tokens/blind-rsa.ts runs without workerd's RSA-RAW, against RFC 9474's
// published RSABSSA-SHA384-PSS-Deterministic vector (the same data as known-answers.test.ts): the
// RSASSA-PSS verification of a finished token, the reading of a blinded message as an integer (OS2IP,
// RFC 8017 §4.2), and the range check BlindSign makes before the private-key operation. The private
// operation itself (RSASP1 through RSA-RAW, and the RSAVP1 check of its result) exists only in workerd:
// known-answers.test.ts checks it there against the same vector.
import { describe, expect, it } from "vitest";
import { BlindSignRefused, blindSign, bytesToBigInt, inSigningRange, verifyPss } from "../../src/domain/age-tokens/blind-rsa";
import rfc9474 from "../fixtures/rfc9474-rsabssa-sha384-pss-deterministic.json";
import { b64url, finalize, hex } from "./rfc-client";

const v = rfc9474.vector;
const [n, e] = [BigInt(`0x${v.n}`), BigInt(`0x${v.e}`)];
const toBytes = (value: bigint, length: number) => hex(value.toString(16).padStart(length * 2, "0"));
const MODULUS_BYTES = v.n.length / 2;

const verifyKey = () =>
  crypto.subtle.importKey("jwk", { kty: "RSA", n: b64url(hex(v.n)), e: b64url(hex(v.e)) }, { name: "RSA-PSS", hash: "SHA-384" }, false, [
    "verify",
  ]);
/**
 * The range check and the refusal before signing read only the modulus; the key they carry never signs
 * here (Node has no RSA-RAW), so the public key stands in for it.
 */
const rangeKey = async () => ({ signKey: await verifyKey(), modulus: n, publicExponent: e });

describe("RFC 9474 vector: verifying a finished token (RSASSA-PSS, SHA-384, 48-byte salt)", () => {
  it("the published signature verifies over the prepared message", async () => {
    expect(await verifyPss(await verifyKey(), hex(v.prepared_msg), hex(v.sig))).toBe(true);
  });

  it("a changed message or a changed signature does not", async () => {
    const key = await verifyKey();
    const message = hex(v.prepared_msg);
    message[message.length - 1]! ^= 1;
    expect(await verifyPss(key, message, hex(v.sig))).toBe(false);
    const signature = hex(v.sig);
    signature[10]! ^= 0x40;
    expect(await verifyPss(key, hex(v.prepared_msg), signature)).toBe(false);
  });

  it("the client's Finalize of the published blind_sig is the published sig, which verifies", async () => {
    const sig = await finalize({ n, e }, hex(v.prepared_msg), hex(v.blind_sig), BigInt(`0x${v.inv}`));
    expect(sig).toStrictEqual(hex(v.sig));
    expect(await verifyPss(await verifyKey(), hex(v.prepared_msg), sig)).toBe(true);
  });
});

describe("OS2IP: the integer of a big-endian byte string", () => {
  it("reads the vector's modulus, every byte with its leading zero nibble kept, and nothing as zero", () => {
    expect(bytesToBigInt(hex(v.n))).toBe(n);
    expect(bytesToBigInt(Uint8Array.from([0x01, 0x00]))).toBe(256n);
    expect(bytesToBigInt(Uint8Array.from([0x00, 0x0a, 0xff]))).toBe(0x0affn);
    expect(bytesToBigInt(new Uint8Array(0))).toBe(0n);
  });
});

describe("the blinded message must be below the modulus (RFC 8017 §5.2.1)", () => {
  it("the vector's blinded_msg, n - 1 and zero are in range; n, n + 1 and all ones are not", async () => {
    const key = await rangeKey();
    expect(inSigningRange(key, hex(v.blinded_msg))).toBe(true);
    expect(inSigningRange(key, toBytes(n - 1n, MODULUS_BYTES))).toBe(true);
    expect(inSigningRange(key, new Uint8Array(MODULUS_BYTES))).toBe(true);
    expect(inSigningRange(key, hex(v.n))).toBe(false);
    expect(inSigningRange(key, toBytes(n + 1n, MODULUS_BYTES))).toBe(false);
    expect(inSigningRange(key, new Uint8Array(MODULUS_BYTES).fill(0xff))).toBe(false);
  });

  it("BlindSign refuses n and above before any private-key operation, naming why", async () => {
    const key = await rangeKey();
    for (const blindedMsg of [hex(v.n), toBytes(n + 1n, MODULUS_BYTES)]) {
      const refusal = await blindSign(key, blindedMsg).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(BlindSignRefused);
      expect((refusal as Error).message).toBe("message representative out of range");
    }
  });

  it("BlindSign does not refuse the vector's blinded_msg as out of range (what follows needs RSA-RAW)", async () => {
    const outcome = await blindSign(await rangeKey(), hex(v.blinded_msg)).then(
      () => "signed",
      (error: unknown) => error,
    );
    expect(outcome).not.toBeInstanceOf(BlindSignRefused);
  });
});
