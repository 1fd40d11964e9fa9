// The DER reader under the certificate checks: exact items, and refusal of what DER forbids (trailing
// bytes, indefinite or non-minimal lengths, truncation) rather than a lenient guess.
import { describe, expect, it } from "vitest";
import { UNIVERSAL, children, expect as expectDer, oid, parseDer, time } from "../../src/digital-id/der";
import { derSignatureToRaw } from "../../src/digital-id/ecdsa";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("DER reader", () => {
  it("reads a SEQUENCE of an OID and a UTCTime, keeping each item's encoded bytes", () => {
    const utc = [0x17, 0x0d, ...new TextEncoder().encode("491231235959Z")];
    const item = parseDer(bytes(0x30, 0x0a + 0x0f, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, ...utc));
    const [first, second] = children(item);
    expect(oid(first)).toBe("1.2.840.10045.3.1.7");
    expect(time(second).toISOString()).toBe("2049-12-31T23:59:59.000Z");
    expect(Array.from(second!.encoded)).toEqual(utc);
  });

  it("reads UTCTime years 50-99 as 19xx and GeneralizedTime as written", () => {
    expect(time(parseDer(bytes(0x17, 0x0d, ...new TextEncoder().encode("500101000000Z")))).getUTCFullYear()).toBe(1950);
    expect(time(parseDer(bytes(0x18, 0x0f, ...new TextEncoder().encode("20510101000000Z")))).getUTCFullYear()).toBe(2051);
  });

  it("refuses trailing bytes, indefinite and non-minimal lengths, and truncation", () => {
    expect(() => parseDer(bytes(0x05, 0x00, 0x00))).toThrow();
    expect(() => parseDer(bytes(0x30, 0x80, 0x00, 0x00))).toThrow();
    expect(() => parseDer(bytes(0x04, 0x81, 0x01, 0xff))).toThrow();
    expect(() => parseDer(bytes(0x04, 0x05, 0x01))).toThrow();
  });

  it("refuses a universal item whose constructed bit is not its type's (a constructed BIT STRING, INTEGER or OID; a primitive SEQUENCE)", () => {
    // X.690 §10.2: DER encodes these types primitive; §8.9: a SEQUENCE is constructed. A flip of that bit
    // outside a certificate's signed part must not leave the same certificate.
    expect(() => expectDer(parseDer(bytes(0x23, 0x02, 0x00, 0xff)), UNIVERSAL.BIT_STRING)).toThrow(/constructed/);
    expect(() => expectDer(parseDer(bytes(0x22, 0x01, 0x01)), UNIVERSAL.INTEGER)).toThrow(/constructed/);
    expect(() => expectDer(parseDer(bytes(0x26, 0x03, 0x2a, 0x86, 0x48)), UNIVERSAL.OID)).toThrow(/constructed/);
    expect(() => expectDer(parseDer(bytes(0x10, 0x00)), UNIVERSAL.SEQUENCE)).toThrow(/constructed/);
    expect(expectDer(parseDer(bytes(0x03, 0x02, 0x00, 0xff)), UNIVERSAL.BIT_STRING).contents.length).toBe(2);
    expect(expectDer(parseDer(bytes(0x30, 0x00)), UNIVERSAL.SEQUENCE).constructed).toBe(true);
  });

  it("refuses a long-form length with a leading zero byte (0x82 0x00 0x90 for 144)", () => {
    const contents = new Array(144).fill(0);
    expect(() => parseDer(bytes(0x04, 0x82, 0x00, 0x90, ...contents))).toThrow(/not minimal/);
    expect(parseDer(bytes(0x04, 0x81, 0x90, ...contents)).contents.length).toBe(144);
  });
});

describe("ECDSA-Sig-Value to r||s", () => {
  const signature = (...integers: number[][]) =>
    bytes(
      0x30,
      integers.reduce((sum, i) => sum + 2 + i.length, 0),
      ...integers.flatMap((i) => [0x02, i.length, ...i]),
    );
  const r = [0x01, ...new Array(31).fill(0x22)];
  const highR = [0x00, 0x81, ...new Array(31).fill(0x22)];

  it("reads DER integers, a leading 0x00 only before a high bit", () => {
    expect(derSignatureToRaw(signature(r, r), "P-256").length).toBe(64);
    expect(derSignatureToRaw(signature(highR, [0x05]), "P-256")[0]).toBe(0x81);
  });

  it("refuses integers that are not DER: a needless leading zero, a negative value, an empty one", () => {
    expect(() => derSignatureToRaw(signature([0x00, ...r], r), "P-256")).toThrow(/not DER/);
    expect(() => derSignatureToRaw(signature([0x00, 0x05], r), "P-256")).toThrow(/not DER/);
    expect(() => derSignatureToRaw(signature([0x81, ...new Array(31).fill(0x22)], r), "P-256")).toThrow(/not DER/);
    expect(() => derSignatureToRaw(signature([], r), "P-256")).toThrow(/not DER/);
  });
});
