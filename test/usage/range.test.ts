import { describe, expect, it } from "vitest";
import type { ApiError } from "../../src/errors";
import { resolveRange } from "../../src/domain/usage/range";

const NOW = Date.parse("2026-11-22T06:30:00.000Z");

const failure = (query: { from?: string; to?: string }) => {
  try {
    resolveRange(query, NOW);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected a validation failure");
};

describe("usage range", () => {
  describe("happy", () => {
    it("defaults to the 30 days ending now", () => {
      expect(resolveRange({}, NOW)).toEqual({ from: "2026-10-23T06:30:00.000Z", to: "2026-11-22T06:30:00.000Z" });
    });

    it("takes a date-only from as the start and a date-only to as the end of that UTC day", () => {
      expect(resolveRange({ from: "2026-11-01", to: "2026-11-30" }, NOW)).toEqual({
        from: "2026-11-01T00:00:00.000Z",
        to: "2026-11-30T23:59:59.999Z",
      });
    });

    it("normalises a date-time with an offset to UTC with milliseconds", () => {
      expect(resolveRange({ from: "2026-11-01T01:00:00+01:00", to: "2026-11-02T00:00:00.123456Z" }, NOW)).toEqual({
        from: "2026-11-01T00:00:00.000Z",
        to: "2026-11-02T00:00:00.123Z",
      });
    });

    it("counts the default from back from an explicit to", () => {
      expect(resolveRange({ to: "2026-01-31T00:00:00Z" }, NOW).from).toBe("2026-01-01T00:00:00.000Z");
    });

    it("accepts a window of exactly 366 days", () => {
      expect(() => resolveRange({ from: "2024-01-01", to: "2024-12-31" }, NOW)).not.toThrow();
    });
  });

  describe("error", () => {
    it.each([
      "yesterday",
      "2026-02-30",
      "2026-13-01",
      "2026-11-01T10:00:00",
      "2026-11-01T25:00Z",
      "2026-00-10T00:00Z",
      "2026-02-30T10:00:00Z",
      "2026-11-01T10:00:61Z",
      "2026-11-01T10:00+25:00",
      "20261101",
      "",
    ])("refuses %j as a date with 422", (value) => {
      const error = failure({ from: value, to: "2026-11-20" });
      expect(error.status).toBe(422);
      expect(error.errors).toEqual([expect.objectContaining({ path: "from" })]);
    });

    it("refuses from after to", () => {
      expect(failure({ from: "2026-11-02", to: "2026-11-01" }).errors[0]!.path).toBe("from");
    });

    it("refuses a window over 366 days", () => {
      expect(failure({ from: "2024-01-01", to: "2025-01-01" }).errors[0]).toMatchObject({ path: "to" });
    });
  });
});
