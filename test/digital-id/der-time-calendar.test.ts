// A certificate's validity times (RFC 5280 §4.1.2.5) as der.ts reads them: a time no calendar has is
// refused, not rolled by Date into the next day, month or year; the text is the item's bytes, nothing
// dropped before it is matched; and a GeneralizedTime year is the year written, 0000 to 0099 included.
import { describe, expect, it } from "vitest";
import { parseDer, time } from "../../src/digital-id/der";

const utcTime = (text: string) => parseDer(Uint8Array.from([0x17, text.length, ...new TextEncoder().encode(text)]));
const generalized = (text: string) => parseDer(Uint8Array.from([0x18, text.length, ...new TextEncoder().encode(text)]));
const refusal = (read: () => Date) => {
  try {
    return `read as ${read().toISOString()}`;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("DER times against the calendar", () => {
  it("reads the last day of February in a leap year and the last second of a day", () => {
    expect(time(utcTime("240229235959Z")).toISOString()).toBe("2024-02-29T23:59:59.000Z");
    expect(time(generalized("20001231235959Z")).toISOString()).toBe("2000-12-31T23:59:59.000Z");
  });

  it("refuses a day, month, hour, minute or second that does not exist", () => {
    for (const text of [
      "260230000000Z",
      "250229000000Z",
      "260431000000Z",
      "261301000000Z",
      "260001000000Z",
      "260100000000Z",
      "260101240000Z",
      "260101006000Z",
      "260101000061Z",
    ])
      expect(
        refusal(() => time(utcTime(text))),
        text,
      ).toMatch(/^DER: /);
    for (const text of ["20260230000000Z", "21000229000000Z", "20261301000000Z"])
      expect(
        refusal(() => time(generalized(text))),
        text,
      ).toMatch(/^DER: /);
  });

  it("refuses a time whose bytes begin with a byte order mark", () => {
    const text = [0xef, 0xbb, 0xbf, ...new TextEncoder().encode("260101000000Z")];
    expect(refusal(() => time(parseDer(Uint8Array.from([0x17, text.length, ...text]))))).toMatch(/^DER: /);
  });

  it("reads a GeneralizedTime year below 100 as written, not as 19xx", () => {
    expect(time(generalized("00500101000000Z")).getUTCFullYear()).toBe(50);
  });
});
