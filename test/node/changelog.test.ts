/// <reference types="vite/client" />
// CHANGELOG.md follows docs/versioning.md: an "Unreleased" section on top, then released versions newest
// first, the newest being the version /api/health and the OpenAPI document serve.
import { describe, expect, it } from "vitest";
import changelog from "../../CHANGELOG.md?raw";
import { API_VERSION } from "../../src/http/api-version";

const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
const released = headings
  .filter((h) => h !== "Unreleased")
  .map((h) => /^(\d+\.\d+\.\d+) — \d{4}-\d{2}-\d{2}$/.exec(h)?.[1] ?? `malformed: ${h}`);

const compare = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  return x![0]! - y![0]! || x![1]! - y![1]! || x![2]! - y![2]!;
};

describe("CHANGELOG.md", () => {
  it("has at most one Unreleased section, on top, then versions as `x.y.z — date`, newest first", () => {
    expect(headings.indexOf("Unreleased")).toBeLessThanOrEqual(0);
    expect(headings.filter((h) => h === "Unreleased").length).toBeLessThanOrEqual(1);
    expect(released.filter((v) => v.startsWith("malformed"))).toEqual([]);
    expect([...released].sort((a, b) => compare(b, a))).toEqual(released);
  });

  it("its newest release is the version the API serves", () => {
    expect(released[0]).toBe(API_VERSION);
  });
});
