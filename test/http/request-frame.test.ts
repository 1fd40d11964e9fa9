// The request frame (src/http/request-frame.ts) replaced hono/request-id, hono/secure-headers and three
// middleware of ours with one: every answer must carry exactly what the old chain gave it. The oracle
// for the security headers is hono/secure-headers itself, configured as the app configured it before.
import { createExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call } from "../helpers/http";
import { productionEnv } from "../helpers/production-env";
import { originOf } from "../../src/http/request-frame";

async function honoSecureHeaders(): Promise<[string, string][]> {
  const oracle = new Hono();
  oracle.use(secureHeaders({ crossOriginResourcePolicy: "same-origin" }));
  oracle.get("/", (c) => c.text("ok"));
  const res = await oracle.request("/");
  return [...res.headers].filter(([name]) => name !== "content-type");
}

describe("request frame", () => {
  it("every answer carries hono/secure-headers' exact set: a success, a 404, a page, a 503", async () => {
    const expected = await honoSecureHeaders();
    expect(expected.length).toBeGreaterThanOrEqual(10);
    const misconfigured = await createApp().fetch(new Request("https://avs.test/api/health"), productionEnv({ JWT_SECRET: undefined }), createExecutionContext());
    expect(misconfigured.status).toBe(503);
    const answers = [(await call("GET", "/api/health")).headers, (await call("GET", "/api/nope")).headers, (await call("GET", "/console")).headers, misconfigured.headers];
    for (const headers of answers) {
      for (const [name, value] of expected) expect(headers.get(name), name).toBe(value);
      expect(headers.get("x-powered-by")).toBeNull();
      expect(headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    // The 503 is JSON and gets no-store like every JSON answer.
    expect(misconfigured.headers.get("cache-control")).toBe("no-store");
  });

  it("echoes a well-formed X-Request-Id and replaces a malformed or overlong one", async () => {
    expect((await call("GET", "/api/health", { headers: { "x-request-id": "abc-DEF_123=" } })).headers.get("x-request-id")).toBe("abc-DEF_123=");
    for (const bad of ["has space", "semi;colon", "x".repeat(256)]) {
      const id = (await call("GET", "/api/health", { headers: { "x-request-id": bad } })).headers.get("x-request-id");
      expect(id, bad).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await call("GET", "/api/health", { headers: { "x-request-id": "x".repeat(255) } })).headers.get("x-request-id")).toBe("x".repeat(255));
  });
});

describe("the development origin of mail links", () => {
  it("is the URL's origin as the URL parser gives it, without parsing each request", () => {
    const urls = [
      "http://localhost:8787/api/auth/register",
      "http://127.0.0.1:61234/verify?session_id=ses_x&nonce=y",
      "https://age.example.com/",
      "https://AGE.Example.com:8443/api?x=/y",
      "http://localhost:8787?query=only",
      "http://localhost:8787",
      "http://user:pass@localhost:8787/api",
      "http://evil.example@localhost:8787/api",
      "http://[::1]:8787/api/health",
    ];
    for (const url of urls) expect(originOf(url), url).toBe(new URL(url).origin);
  });
});
