// The table-driven base64url and hex of src/lib/encoding.ts against the plain definitions they replaced
// (atob over the rewritten alphabet; toString(16) per byte): same bytes, same failures, every length.
import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url, toHex } from "../../src/lib/encoding";

const referenceFromBase64Url = (text: string) => {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(padded + "=".repeat((4 - (padded.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};
const outcome = (decode: (text: string) => Uint8Array) => (text: string) => {
  try {
    return { bytes: [...decode(text)] };
  } catch {
    return { throws: true };
  }
};
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const randomText = (length: number) => Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => ALPHABET[b & 63]).join("");

describe("fromBase64Url", () => {
  it("decodes every length of plain base64url as atob does, trailing bits included", () => {
    for (let length = 0; length <= 70; length++) {
      for (let n = 0; n < 20; n++) {
        const text = randomText(length);
        expect(outcome(fromBase64Url)(text), text).toEqual(outcome(referenceFromBase64Url)(text));
      }
    }
  });

  it("round-trips bytes of every length", () => {
    for (let length = 0; length <= 64; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      expect([...fromBase64Url(toBase64Url(bytes))]).toEqual([...bytes]);
    }
  });

  it("answers any other text as before: padding and standard characters accepted, the rest thrown", () => {
    const texts = [
      "QUJD",
      "QUI=",
      "QQ==",
      "QQ",
      "Q",
      "QUJDR",
      "a+b/",
      "ab+/cd",
      "ab=c",
      "ab c",
      "é",
      "ab\u0100c",
      "a.bc",
      "====",
      "AB==CD",
      "",
    ];
    for (const text of texts) expect(outcome(fromBase64Url)(text), text).toEqual(outcome(referenceFromBase64Url)(text));
    expect(() => fromBase64Url("Q")).toThrow();
    expect(() => fromBase64Url("a.bc")).toThrow();
  });
});

describe("toHex", () => {
  it("writes two lowercase digits per byte, every byte value", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(toHex(all)).toBe(Array.from(all, (b) => b.toString(16).padStart(2, "0")).join(""));
    expect(toHex(new Uint8Array([0, 15, 16, 255]).buffer)).toBe("000f10ff");
    expect(toHex(new Uint8Array(0))).toBe("");
  });
});
