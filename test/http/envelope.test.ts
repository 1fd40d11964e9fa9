import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { call, expectError } from "../helpers/http";
import { productionEnv } from "../helpers/production-env";

const production = (overrides: Partial<Env> = {}): Env => productionEnv(overrides);

describe("envelope and errors", () => {
  it("answers an unknown path with a JSON 404 envelope", async () => {
    const res = await call("GET", "/api/nope");
    expectError(res, 404, "NOT_FOUND");
  });

  it("sets a request id and secure headers on every response", async () => {
    const res = await call("GET", "/api/nope");
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a body over 64 KiB with 413", async () => {
    const res = await call("POST", "/api/auth/login", {
      rawBody: JSON.stringify({ pad: "x".repeat(70_000) }),
      headers: { "content-type": "application/json" },
    });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
  });

  it("refuses a body that is not JSON with 415", async () => {
    const res = await call("POST", "/api/auth/login", {
      rawBody: "email=a@b.c",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses a media type the JSON validator would not read with 415, rather than reading it as {}", async () => {
    const res = await call("POST", "/api/auth/login", {
      rawBody: JSON.stringify({ email: "a@b.co", password: "x" }),
      headers: { "content-type": "application/a+b+json" },
    });
    expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    const vendor = await call("POST", "/api/auth/login", {
      rawBody: JSON.stringify({ email: "nobody@example.test", password: "x" }),
      headers: { "content-type": "application/vnd.api+json; charset=utf-8" },
    });
    expectError(vendor, 401, "INVALID_CREDENTIALS");
  });

  it("refuses malformed JSON with 400", async () => {
    const res = await call("POST", "/api/auth/login", { rawBody: '{"email":', headers: { "content-type": "application/json" } });
    expectError(res, 400, "MALFORMED_JSON");
  });

  it("logs an internal error by name only: a failed query's parameters never reach the log", async () => {
    const app = createApp();
    app.get("/api/boom", () => {
      throw new Error("Failed query: insert into users values (?)\nparams: ada@example.test,pbkdf2-sha256$100000$x$y", {
        cause: new TypeError("D1_ERROR"),
      });
    });
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.push(String(line)));
    await app.fetch(new Request("https://avs.test/api/boom"), env, createExecutionContext());
    spy.mockRestore();
    const logged = lines.join("\n");
    expect(logged).toContain('"error":"Error"');
    expect(logged).toContain('"cause":"TypeError"');
    expect(logged).not.toMatch(/ada@example|pbkdf2|Failed query/);
  });

  it("never leaks an internal error's detail", async () => {
    const app = createApp();
    app.get("/api/boom", () => {
      throw new Error("SQLITE_ERROR: near SELECT * FROM users");
    });
    const res = await app.fetch(new Request("https://avs.test/api/boom"), env, createExecutionContext());
    expect(res.status).toBe(500);
    const body = await res.json<Record<string, string>>();
    expect(body).toMatchObject({ success: false, error: "INTERNAL_ERROR", errors: [] });
    expect(body.message).toContain(res.headers.get("x-request-id")!);
    expect(JSON.stringify(body)).not.toMatch(/SQLITE|SELECT|at .*\.ts/);
  });
});

describe("configuration", () => {
  it("production refuses to serve when a required secret is missing", async () => {
    const res = await createApp().fetch(
      new Request("https://avs.test/api/health"),
      production({ JWT_SECRET: undefined }),
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    // The body names no setting (anyone may be asking); the operator's log line does.
    expect(await res.json()).toEqual({
      success: false,
      error: "MISCONFIGURED",
      message: "The service is not configured to serve requests.",
      errors: [],
    });
  });

  it("development-only routes answer 404 in production", async () => {
    const res = await createApp().fetch(
      new Request("https://avs.test/api/dev/outbox?to=a@example.test"),
      production(),
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: "NOT_FOUND" });
  });

  it("the development outbox page answers 404 in production too", async () => {
    const res = await createApp().fetch(
      new Request("https://avs.test/dev/outbox?to=a@example.test"),
      production(),
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: "NOT_FOUND" });
  });

  it("production with its secrets serves", async () => {
    const res = await createApp().fetch(new Request("https://avs.test/api/health"), production(), createExecutionContext());
    expect(res.status).toBe(200);
  });
});
