// The CBOR the verifier reads and writes (src/digital-id/cbor.ts, cbor-read.ts), against RFC 8949's own
// examples (Appendix A) and the rules the decoder adds for mdoc structures: definite lengths only, safe
// integers, text or integer map keys without duplicates, exact UTF-8, and a walk that refuses truncated,
// too deep or too large input before the library decodes it (docs/digital-id.md, "Work per answer").
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors";
import { CborError, CborFloat, decodeCbor, encodeCbor, MAX_ITEMS, Tagged, type Cbor } from "../../src/digital-id/cbor";
import { asDate, asInteger, asText, embeddedBytes, parse } from "../../src/digital-id/cbor-read";
import { toHex } from "../../src/lib/encoding";

const hex = (text: string) => Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

/** The CborError's reason, another error's name, or "accepted". */
function refusal(bytes: Uint8Array): string {
  try {
    decodeCbor(bytes);
    return "accepted";
  } catch (error) {
    return error instanceof CborError ? error.message : (error as Error).name;
  }
}

/** The refusal's message as the problem detail carries it, or "accepted". */
function detail(run: () => unknown): string {
  try {
    run();
    return "accepted";
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("DIGITAL_ID_INVALID");
    return (error as ApiError).message;
  }
}

/**
 * RFC 8949 Appendix A, the examples of well-formed items this decoder reads: [encoding, value]. Floats
 * stay CborFloat, bignums (tags 2 and 3) stay tags, and `encodes` marks the rows the encoder writes back
 * byte for byte (integers, strings, arrays, maps, tags and the simple values it knows).
 */
const APPENDIX_A: [string, Cbor, "encodes"?][] = [
  ["00", 0, "encodes"],
  ["01", 1, "encodes"],
  ["0a", 10, "encodes"],
  ["17", 23, "encodes"],
  ["1818", 24, "encodes"],
  ["1819", 25, "encodes"],
  ["1864", 100, "encodes"],
  ["1903e8", 1000, "encodes"],
  ["1a000f4240", 1000000, "encodes"],
  ["1b000000e8d4a51000", 1000000000000, "encodes"],
  ["c249010000000000000000", new Tagged(2, hex("010000000000000000")), "encodes"],
  ["c349010000000000000000", new Tagged(3, hex("010000000000000000")), "encodes"],
  ["20", -1, "encodes"],
  ["29", -10, "encodes"],
  ["3863", -100, "encodes"],
  ["3903e7", -1000, "encodes"],
  ["f90000", new CborFloat(0)],
  ["f98000", new CborFloat(-0)],
  ["f93c00", new CborFloat(1)],
  ["fb3ff199999999999a", new CborFloat(1.1)],
  ["f93e00", new CborFloat(1.5)],
  ["f97bff", new CborFloat(65504)],
  ["fa47c35000", new CborFloat(100000)],
  ["fa7f7fffff", new CborFloat(3.4028234663852886e38)],
  ["fb7e37e43c8800759c", new CborFloat(1.0e300)],
  ["f90001", new CborFloat(2 ** -24)], // 5.960464477539063e-8
  ["f90400", new CborFloat(0.00006103515625)],
  ["f9c400", new CborFloat(-4)],
  ["fbc010666666666666", new CborFloat(-4.1)],
  ["f97c00", new CborFloat(Number.POSITIVE_INFINITY)],
  ["f97e00", new CborFloat(Number.NaN)],
  ["f9fc00", new CborFloat(Number.NEGATIVE_INFINITY)],
  ["fa7f800000", new CborFloat(Number.POSITIVE_INFINITY)],
  ["fa7fc00000", new CborFloat(Number.NaN)],
  ["faff800000", new CborFloat(Number.NEGATIVE_INFINITY)],
  ["fb7ff0000000000000", new CborFloat(Number.POSITIVE_INFINITY)],
  ["fb7ff8000000000000", new CborFloat(Number.NaN)],
  ["fbfff0000000000000", new CborFloat(Number.NEGATIVE_INFINITY)],
  ["f4", false, "encodes"],
  ["f5", true, "encodes"],
  ["f6", null, "encodes"],
  ["f7", undefined, "encodes"],
  ["c074323031332d30332d32315432303a30343a30305a", new Tagged(0, "2013-03-21T20:04:00Z"), "encodes"],
  ["c11a514b67b0", new Tagged(1, 1363896240), "encodes"],
  ["c1fb41d452d9ec200000", new Tagged(1, new CborFloat(1363896240.5))],
  ["d74401020304", new Tagged(23, hex("01020304")), "encodes"],
  ["d818456449455446", new Tagged(24, hex("6449455446")), "encodes"],
  ["d82076687474703a2f2f7777772e6578616d706c652e636f6d", new Tagged(32, "http://www.example.com"), "encodes"],
  ["40", new Uint8Array(0), "encodes"],
  ["4401020304", hex("01020304"), "encodes"],
  ["60", "", "encodes"],
  ["6161", "a", "encodes"],
  ["6449455446", "IETF", "encodes"],
  ["62225c", '"\\', "encodes"],
  ["62c3bc", "\u00fc", "encodes"],
  ["63e6b0b4", "\u6c34", "encodes"],
  ["64f0908591", "\ud800\udd51", "encodes"],
  ["80", [], "encodes"],
  ["83010203", [1, 2, 3], "encodes"],
  ["8301820203820405", [1, [2, 3], [4, 5]], "encodes"],
  ["98190102030405060708090a0b0c0d0e0f101112131415161718181819", Array.from({ length: 25 }, (_, i) => i + 1), "encodes"],
  ["a0", new Map(), "encodes"],
  [
    "a201020304",
    new Map([
      [1, 2],
      [3, 4],
    ]),
    "encodes",
  ],
  [
    "a26161016162820203",
    new Map<string, Cbor>([
      ["a", 1],
      ["b", [2, 3]],
    ]),
    "encodes",
  ],
  ["826161a161626163", ["a", new Map([["b", "c"]])], "encodes"],
  [
    "a56161614161626142616361436164614461656145",
    new Map([
      ["a", "A"],
      ["b", "B"],
      ["c", "C"],
      ["d", "D"],
      ["e", "E"],
    ]),
    "encodes",
  ],
];

/** RFC 8949 Appendix A's examples this decoder refuses: out of the safe integer range, unassigned simple values, indefinite lengths. */
const APPENDIX_A_REFUSED: [string, string][] = [
  ["1bffffffffffffffff", "integer out of range"],
  ["3bffffffffffffffff", "integer out of range"],
  ["f0", "unknown simple value"],
  ["f8ff", "unknown simple value"],
  ["5f42010243030405ff", "indefinite length"],
  ["7f657374726561646d696e67ff", "indefinite length"],
  ["9fff", "indefinite length"],
  ["9f018202039f0405ffff", "indefinite length"],
  ["9f01820203820405ff", "indefinite length"],
  ["83018202039f0405ff", "indefinite length"],
  ["83019f0203ff820405", "indefinite length"],
  ["9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", "indefinite length"],
  ["bf61610161629f0203ffff", "indefinite length"],
  ["826161bf61626163ff", "indefinite length"],
  ["bf6346756ef563416d7421ff", "indefinite length"],
];

describe("RFC 8949 Appendix A", () => {
  it.each(APPENDIX_A)("decodes %s", (encoding, value) => {
    expect(decodeCbor(hex(encoding))).toStrictEqual(value);
  });

  it.each(APPENDIX_A.filter(([, , encodes]) => encodes))("encodes %s back, byte for byte", (encoding, value) => {
    expect(toHex(encodeCbor(value))).toBe(encoding);
  });

  it.each(APPENDIX_A_REFUSED)("refuses %s: %s", (encoding, reason) => {
    expect(refusal(hex(encoding))).toBe(reason);
  });
});

describe("integers", () => {
  it("reads the safe integers and refuses the first ones beyond, both signs", () => {
    expect(decodeCbor(hex("1b001fffffffffffff"))).toBe(Number.MAX_SAFE_INTEGER);
    expect(decodeCbor(hex("3b001ffffffffffffe"))).toBe(Number.MIN_SAFE_INTEGER);
    expect(refusal(hex("1b0020000000000000"))).toBe("integer out of range");
    expect(refusal(hex("3b001fffffffffffff"))).toBe("integer out of range");
    expect(refusal(hex("db002000000000000000"))).toBe("integer out of range");
  });

  it("encodes every head in its shortest form (RFC 8949 §4.2.1), at each boundary", () => {
    for (const [value, encoding] of [
      [255, "18ff"],
      [256, "190100"],
      [65535, "19ffff"],
      [65536, "1a00010000"],
      [4294967295, "1affffffff"],
      [4294967296, "1b0000000100000000"],
      [Number.MAX_SAFE_INTEGER, "1b001fffffffffffff"],
      [-256, "38ff"],
      [-257, "390100"],
      [Number.MIN_SAFE_INTEGER, "3b001ffffffffffffe"],
    ] as const) {
      expect(toHex(encodeCbor(value)), String(value)).toBe(encoding);
    }
    expect(toHex(encodeCbor(new Uint8Array(256))).slice(0, 6)).toBe("590100");
    expect(toHex(encodeCbor("a".repeat(24))).slice(0, 4)).toBe("7818");
  });

  it("refuses to encode what it would write wrongly: floats, unsafe integers, negative tags, other types", () => {
    const reason = (value: unknown) => {
      try {
        encodeCbor(value);
        return "encoded";
      } catch (error) {
        expect(error).toBeInstanceOf(CborError);
        return (error as Error).message;
      }
    };
    expect(reason(1.5)).toBe("only integers are encoded");
    expect(reason(2 ** 53)).toBe("cannot encode this number");
    expect(reason(-(2 ** 53) - 2)).toBe("cannot encode this number");
    expect(reason(new Tagged(-1, 0))).toBe("cannot encode this number");
    expect(reason(1n)).toBe("cannot encode this value");
    expect(reason(Symbol("x"))).toBe("cannot encode this value");
    expect(reason(() => 1)).toBe("cannot encode this value");
    expect(toHex(encodeCbor({ a: 1, b: undefined }))).toBe("a26161016162f7");
  });
});

describe("what the decoder reads beyond the library", () => {
  it("refuses map keys that are not text or integers, and duplicate keys", () => {
    expect(refusal(hex("a1410001"))).toBe("map key is not text or an integer");
    expect(refusal(hex("a18001"))).toBe("map key is not text or an integer");
    expect(refusal(hex("a1f93c0001"))).toBe("map key is not text or an integer");
    expect(refusal(hex("a2616101616102"))).toBe("duplicate map key");
    expect(refusal(hex("a201010102"))).toBe("duplicate map key");
  });

  it("reads text as exact UTF-8: invalid bytes are refused, a leading byte order mark is kept", () => {
    expect(refusal(hex("62c328"))).not.toBe("accepted");
    expect(detail(() => parse(hex("62c328"), "answer"))).toBe("The digital ID did not verify: the answer is not well-formed CBOR.");
    // U+FEFF is a character like any other in a CBOR text string: "\uFEFFa" is not "a".
    expect(decodeCbor(hex("64efbbbf61"))).toBe("\ufeffa");
    expect(decodeCbor(hex("a264efbbbf6101616102"))).toStrictEqual(
      new Map([
        ["\ufeffa", 1],
        ["a", 2],
      ]),
    );
  });
});

describe("the walk before decoding", () => {
  it("refuses truncated input, whatever is cut", () => {
    for (const encoding of ["", "19", "1901", "1b00000000", "4301", "6361", "c0", "8201", "a101"]) {
      expect(refusal(hex(encoding)), encoding).toBe("truncated");
    }
    // A count that the bytes left cannot hold is refused at its head, before any element is walked.
    expect(refusal(Uint8Array.from([0x99, 0x07, 0xd0, ...new Uint8Array(1500)]))).toBe("truncated");
    expect(refusal(Uint8Array.from([0xb9, 0x03, 0xe8, ...new Uint8Array(1500)]))).toBe("truncated");
    // Also deep in the input: 1,200 elements after a 1,000-byte string, with 1,100 bytes left.
    const late = [0x82, 0x59, 0x03, 0xe8, ...new Uint8Array(1000), 0x99, 0x04, 0xb0, ...new Uint8Array(1100)];
    expect(refusal(Uint8Array.from(late))).toBe("truncated");
  });

  it("refuses reserved additional information (28 to 30) and indefinite lengths (31)", () => {
    for (const initial of [0x1c, 0x3d, 0x5e]) expect(refusal(Uint8Array.of(initial, 0))).toBe("reserved additional information");
    for (const initial of [0x5f, 0x7f, 0x9f, 0xbf]) expect(refusal(Uint8Array.of(initial, 0xff))).toBe("indefinite length");
  });

  it(`reads ${MAX_ITEMS} items and refuses one more`, () => {
    const array = (count: number) => Uint8Array.from([0x99, count >> 8, count & 0xff, ...new Uint8Array(count)]);
    expect(decodeCbor(array(MAX_ITEMS - 1))).toHaveLength(MAX_ITEMS - 1);
    expect(refusal(array(MAX_ITEMS))).toBe("too many items");
  });

  it("reads 17 levels of arrays or tags and refuses an 18th", () => {
    const arrays = (levels: number) => Uint8Array.from([...new Array(levels - 1).fill(0x81), 0x80]);
    const tags = (levels: number) => Uint8Array.from([...new Array(levels - 1).fill(0xc1), 0x00]);
    expect(decodeCbor(arrays(17))).toBeInstanceOf(Array);
    expect(decodeCbor(tags(17))).toBeInstanceOf(Tagged);
    expect(refusal(arrays(18))).toBe("nested too deep");
    expect(refusal(tags(18))).toBe("nested too deep");
  });
});

describe("typed reading (cbor-read.ts)", () => {
  const prefix = "The digital ID did not verify: ";

  it("names the field whose type is wrong", () => {
    expect(detail(() => asText(parse(hex("01"), "answer"), "docType"))).toBe(`${prefix}docType is not text.`);
    expect(detail(() => asInteger(parse(hex("6130"), "answer"), "status"))).toBe(`${prefix}status is not an integer.`);
    expect(asInteger(parse(hex("20"), "answer"), "status")).toBe(-1);
    expect(detail(() => embeddedBytes(parse(hex("d8194100"), "answer"), "MSO"))).toBe(`${prefix}MSO is not embedded CBOR (tag 24).`);
    expect(detail(() => embeddedBytes(parse(hex("4100"), "answer"), "MSO"))).toBe(`${prefix}MSO is not embedded CBOR (tag 24).`);
  });

  it("reads a tdate (tag 0, RFC 3339) and nothing else as a date", () => {
    expect(asDate(new Tagged(0, "2024-01-01T00:00:00Z"), "validFrom")).toStrictEqual(new Date(Date.UTC(2024, 0, 1)));
    expect(asDate(new Tagged(0, "2024-01-01T01:00:00.5+01:00"), "validFrom")).toStrictEqual(new Date(Date.UTC(2024, 0, 1, 0, 0, 0, 500)));
    expect(asDate(new Tagged(0, "2024-02-29T23:59:59Z"), "validFrom")).toStrictEqual(new Date(Date.UTC(2024, 1, 29, 23, 59, 59)));
    expect(asDate(new Tagged(0, "2023-12-31T00:00:00-01:00"), "validFrom")).toStrictEqual(new Date(Date.UTC(2023, 11, 31, 1)));
    for (const value of [
      undefined,
      "2024-01-01T00:00:00Z",
      new Tagged(1004, "2024-01-01T00:00:00Z"),
      new Tagged(1, 1704067200),
      new Tagged(0, 1704067200),
    ]) {
      expect(detail(() => asDate(value, "validFrom"))).toBe(`${prefix}validFrom is not a date-time (tag 0).`);
    }
    // Texts that Date parses but RFC 3339 does not allow: an expanded year, anything after the offset
    // (Date stops at a NUL), and an offset without its sign.
    for (const value of [
      "+002024-01-01T00:00:00Z",
      "2024-01-01T00:00:00Z\u0000",
      "2024-01-01T00:00:00\u000001:00",
      "2024-13-01T00:00:00Z",
      // Dates no calendar has, which Date rolls over into the next day or month instead of refusing.
      "2024-02-30T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "2024-04-31T00:00:00Z",
      "2024-02-29T24:00:00Z",
    ]) {
      expect(
        detail(() => asDate(new Tagged(0, value), "validFrom")),
        JSON.stringify(value),
      ).toBe(`${prefix}validFrom is not a valid date-time.`);
    }
  });
});
