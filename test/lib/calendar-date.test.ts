import { describe, expect, it } from "vitest";
import { isCalendarDate, todayUtc, yearsBefore } from "../../src/lib/calendar-date";

describe("calendar dates", () => {
  it("accepts only dates that exist", () => {
    expect(isCalendarDate("2000-02-29")).toBe(true);
    expect(isCalendarDate("1900-02-29")).toBe(false);
    expect(isCalendarDate("2001-02-29")).toBe(false);
    expect(isCalendarDate("2001-04-31")).toBe(false);
    expect(isCalendarDate("2001-13-01")).toBe(false);
    expect(isCalendarDate("2001-1-01")).toBe(false);
    expect(isCalendarDate("2001-01-01T00:00:00Z")).toBe(false);
  });

  it("counts years back on the calendar, 29 February falling back to 28 February", () => {
    expect(yearsBefore("2026-11-22", 150)).toBe("1876-11-22");
    expect(yearsBefore("2024-02-29", 1)).toBe("2023-02-28");
    expect(yearsBefore("2024-02-29", 4)).toBe("2020-02-29");
  });

  it("gives today's date in UTC", () => {
    expect(todayUtc(Date.UTC(2026, 0, 1, 23, 59))).toBe("2026-01-01");
  });
});
