// The request line: written for what went wrong (status 400 and above) with the route pattern, never the
// raw path or query; nothing for a request that succeeded (its cost was measured, docs/performance.md).
import { createExecutionContext, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { serviceContext } from "../../src/service";
import { settingsOf } from "../../src/config/settings";

function captureLogs() {
  const lines: string[] = [];
  for (const level of ["log", "warn", "error"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  }
  return lines;
}

const fetchApp = (path: string, init?: RequestInit) =>
  createApp().fetch(new Request(`https://avs.test${path}`, init), env, createExecutionContext());
const requestLines = (lines: string[]) => lines.filter((line) => line.includes('"message":"request"'));

afterEach(() => vi.restoreAllMocks());

describe("request log", () => {
  it("a request that succeeds writes no line", async () => {
    const lines = captureLogs();
    const res = await fetchApp("/api/health");
    expect(res.status).toBe(200);
    expect(requestLines(lines)).toEqual([]);
  });

  it("a refused request writes one line with the route pattern, never the session id or the query", async () => {
    const lines = captureLogs();
    const res = await fetchApp(`/api/age-verification/session/ses_${"B".repeat(24)}?nonce=secret-nonce-value`, {
      headers: { "x-api-key": "not-a-key" },
    });
    expect(res.status).toBe(401);
    const written = requestLines(lines);
    expect(written).toHaveLength(1);
    const line = JSON.parse(written[0]!);
    expect(line).toMatchObject({ level: "info", method: "GET", status: 401, requestId: res.headers.get("x-request-id") });
    expect(line.route).toMatch(/^\/api\//);
    expect(written[0]).not.toContain("BBBB");
    expect(written[0]).not.toContain("secret-nonce-value");
  });

  it("a server error is logged at error level", async () => {
    const app = createApp();
    app.get("/api/boom", () => {
      throw new Error("boom");
    });
    const lines = captureLogs();
    const res = await app.fetch(new Request("https://avs.test/api/boom"), env, createExecutionContext());
    expect(res.status).toBe(500);
    expect(JSON.parse(requestLines(lines)[0]!)).toMatchObject({ level: "error", status: 500, route: "/api/boom" });
  });
});

describe("service context", () => {
  it("is built once per bindings object (workerd passes one to every request of an isolate), and anew for another", () => {
    const first = serviceContext(env);
    expect(serviceContext(env)).toBe(first);
    expect(first.settings).toBe(settingsOf(env));
    const other = { ...env };
    const separate = serviceContext(other);
    expect(separate).not.toBe(first);
    expect(separate.settings).toBe(settingsOf(other));
    expect(separate.settings).not.toBe(first.settings);
  });
});
