// asDate's calendar check (cbor-read.ts, "an mdoc validity date no calendar has is refused") against the
// proleptic Gregorian calendar RFC 3339 uses: every day that exists is read, every day that does not is
// refused, in every year a tdate can write (0000 to 9999), not only in the years Date.UTC reads as given.
import { describe, expect, it } from "vitest";
import { Tagged } from "../../src/digital-id/cbor";
import { asDate } from "../../src/digital-id/cbor-read";

const leap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) => (month === 2 ? (leap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);
const tdate = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}T00:00:00Z`;
const reads = (text: string) => {
  try {
    return asDate(new Tagged(0, text), "validFrom").toISOString().startsWith(text.slice(0, 10));
  } catch {
    return false;
  }
};

describe("a tdate's day against the calendar", () => {
  it("reads 29 February 0000, a leap day (0 is divisible by 400), as Date itself does", () => {
    expect(new Date("0000-02-29T00:00:00Z").toISOString()).toBe("0000-02-29T00:00:00.000Z");
    expect(reads("0000-02-29T00:00:00Z")).toBe(true);
  });

  it("reads each month's last day and refuses the day after it, in the years 0000 to 0400 and around 1900 and 2000", () => {
    const years = [...Array.from({ length: 401 }, (_, year) => year), 1899, 1900, 1904, 1999, 2000, 2100, 2400, 9999];
    const wrong: string[] = [];
    for (const year of years)
      for (let month = 1; month <= 12; month++) {
        const last = daysIn(year, month);
        if (!reads(tdate(year, month, last))) wrong.push(`${tdate(year, month, last)} refused`);
        if (last < 31 && reads(tdate(year, month, last + 1))) wrong.push(`${tdate(year, month, last + 1)} read`);
      }
    expect(wrong).toEqual([]);
  });
});
