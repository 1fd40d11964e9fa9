// The Privacy Pass messages as bytes (src/domain/age-tokens/wire-format.ts), rule by rule at their edges:
// the TokenChallenge's field ranges, and what the TokenRequest and Token parsers refuse, with their
// messages. The bytes are built here from the RFCs' layouts, not by the code under test.
import { describe, expect, it } from "vitest";
import {
  encodeTokenChallenge,
  parseToken,
  parseTokenRequest,
  TOKEN_BYTES,
  TOKEN_REQUEST_BYTES,
} from "../../src/domain/age-tokens/wire-format";
import { tokenChallenge } from "./rfc-client";

const fields = (issuerName: string, originInfo: string, redemptionContext = new Uint8Array(0)) => ({
  issuerName,
  originInfo,
  redemptionContext,
});

describe("encodeTokenChallenge (RFC 9577 §2.1.1)", () => {
  it("writes the layout the RFC client writes, with and without a redemption context", () => {
    expect(encodeTokenChallenge(fields("issuer.example", "origin.example"))).toEqual(
      tokenChallenge("issuer.example", new Uint8Array(0), "origin.example"),
    );
    const context = new Uint8Array(32).fill(9);
    expect(encodeTokenChallenge(fields("issuer.example", "", context))).toEqual(tokenChallenge("issuer.example", context, ""));
  });

  it("takes an issuer_name of 1 and of 65,535 bytes, and an origin_info of 0 and of 65,535", () => {
    expect(encodeTokenChallenge(fields("i", "")).length).toBe(2 + 2 + 1 + 1 + 2);
    const longest = "a".repeat(0xffff);
    expect(encodeTokenChallenge(fields(longest, longest)).length).toBe(2 + 2 + 0xffff + 1 + 2 + 0xffff);
  });

  it.each([
    ["an empty issuer_name", "", ""],
    ["an issuer_name of 65,536 bytes", "a".repeat(0x10000), ""],
    ["an origin_info of 65,536 bytes", "issuer.example", "a".repeat(0x10000)],
  ])("refuses %s", (_, issuerName, originInfo) => {
    expect(() => encodeTokenChallenge(fields(issuerName, originInfo))).toThrow("TokenChallenge: issuer_name or origin_info out of range");
  });

  it.each([1, 31, 33])("refuses a redemption_context of %i bytes (it is empty or 32)", (length) => {
    expect(() => encodeTokenChallenge(fields("issuer.example", "", new Uint8Array(length)))).toThrow(
      "TokenChallenge: redemption_context is empty or 32 bytes",
    );
  });
});

describe("parseTokenRequest (RFC 9578 §6.1)", () => {
  const request = (type: number, length = TOKEN_REQUEST_BYTES) => {
    const bytes = new Uint8Array(length);
    if (length > 0) bytes[0] = type >> 8;
    if (length > 1) bytes[1] = type & 0xff;
    if (length > 2) bytes[2] = 0xb6;
    bytes.fill(7, 3);
    return bytes;
  };

  it("reads the truncated key id and the 256-byte blinded message", () => {
    const parsed = parseTokenRequest(request(2));
    expect(parsed.truncatedTokenKeyId).toBe(0xb6);
    expect(parsed.blindedMsg).toEqual(new Uint8Array(256).fill(7));
  });

  it.each([
    ["no bytes", request(2, 0)],
    ["one byte", request(2, 1)],
    ["type 1 (VOPRF)", request(1)],
    ["type 0x0202", request(0x0202)],
  ])("refuses %s as not a TokenRequest of type 2", (_, bytes) => {
    expect(() => parseTokenRequest(bytes)).toThrow(new Error("not a TokenRequest of token type 2 (blind RSA)"));
  });

  it.each([2, 3, TOKEN_REQUEST_BYTES - 1, TOKEN_REQUEST_BYTES + 1])("refuses a type 2 request of %i bytes, naming the size", (length) => {
    expect(() => parseTokenRequest(request(2, length))).toThrow(
      new Error(`a TokenRequest of token type 2 is ${TOKEN_REQUEST_BYTES} bytes`),
    );
  });
});

describe("parseToken (RFC 9577 §2.2)", () => {
  const token = (type = 2, length = TOKEN_BYTES) => {
    const bytes = Uint8Array.from({ length }, (_, i) => i % 251);
    bytes.set([type >> 8, type & 0xff]);
    return bytes;
  };

  it("splits the token into its fields, the authenticator input being every byte before the authenticator", () => {
    const bytes = token();
    const parsed = parseToken(bytes)!;
    expect(parsed.nonce).toEqual(bytes.slice(2, 34));
    expect(parsed.challengeDigest).toEqual(bytes.slice(34, 66));
    expect(parsed.tokenKeyId).toEqual(bytes.slice(66, 98));
    expect(parsed.authenticatorInput).toEqual(bytes.slice(0, 98));
    expect(parsed.authenticator).toEqual(bytes.slice(98));
    expect(parsed.authenticator).toHaveLength(256);
  });

  it("reads the type where the bytes start, not where their buffer starts", () => {
    const at = (marker: number, type: number) => {
      const buffer = new Uint8Array(2 + TOKEN_BYTES);
      buffer.set([0, marker]);
      buffer.set(token(type), 2);
      return buffer.subarray(2);
    };
    expect(parseToken(at(1, 2))).not.toBeNull();
    expect(parseToken(at(2, 1))).toBeNull();
    expect(() => parseTokenRequest(at(2, 1).subarray(0, TOKEN_REQUEST_BYTES))).toThrow("not a TokenRequest of token type 2");
  });

  it.each([
    ["type 1 of the right size", token(1)],
    ["type 0x0202", token(0x0202)],
    ["one byte short", token(2, TOKEN_BYTES - 1)],
    ["one byte long", token(2, TOKEN_BYTES + 1)],
    ["empty", new Uint8Array(0)],
  ])("is null for a token of %s", (_, bytes) => {
    expect(parseToken(bytes)).toBeNull();
  });
});
