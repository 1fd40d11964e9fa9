// The request frame (src/http/request-frame.ts) replaced hono/request-id, hono/secure-headers and three
// middleware of ours with one. A page must carry exactly what hono/secure-headers gave it (the oracle is
// the middleware itself, configured as the app configured it before); every other answer carries the
// data set of src/http/secure-headers.ts, written out below, and none of the page-only headers.
import { createExecutionContext, env } from "cloudflare:test";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call } from "../helpers/http";
import { productionEnv } from "../helpers/production-env";
import { originOf, requestFrame } from "../../src/http/request-frame";
import type { AppEnv } from "../../src/http/app-env";
import { serviceContext } from "../../src/service";

async function honoSecureHeaders(): Promise<[string, string][]> {
  const oracle = new Hono();
  oracle.use(secureHeaders({ crossOriginResourcePolicy: "same-origin" }));
  oracle.get("/", (c) => c.text("ok"));
  const res = await oracle.request("/");
  return [...res.headers].filter(([name]) => name !== "content-type");
}

// What an answer that is not a page carries (src/http/secure-headers.ts), written out: the OWASP REST set.
const DATA_HEADERS: Record<string, string> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "strict-transport-security": "max-age=15552000; includeSubDomains",
  "x-content-type-options": "nosniff",
};

/** A bare app in the request frame, answering each kind of content the Worker sends. */
function frameApp() {
  const app = new Hono<AppEnv>();
  app.use(requestFrame(serviceContext));
  app.get("/page", (c) => c.html("<p>hi</p>"));
  app.get("/page-upper", (c) => c.body("<p>hi</p>", 200, { "content-type": "TEXT/HTML; charset=UTF-8" }));
  app.get("/json", (c) => c.json({ ok: true }));
  app.get("/csv", (c) => c.body("a,b\n", 200, { "content-type": "text/csv; charset=utf-8" }));
  app.get("/redirect", (c) => c.redirect("/json", 302));
  app.get("/own-policy", (c) => c.json({ ok: true }, 200, { "content-security-policy": "sandbox" }));
  app.get("/powered", (c) => c.json({ ok: true }, 200, { "x-powered-by": "x" }));
  return app;
}
const frameCall = (path: string) => frameApp().fetch(new Request(`https://avs.test${path}`), env, createExecutionContext());

describe("request frame", () => {
  it("a page carries hono/secure-headers' exact set", async () => {
    const expected = await honoSecureHeaders();
    expect(expected.length).toBeGreaterThanOrEqual(10);
    const pages = [(await call("GET", "/console")).headers, (await frameCall("/page")).headers, (await frameCall("/page-upper")).headers];
    for (const headers of pages) {
      for (const [name, value] of expected) expect(headers.get(name), name).toBe(value);
      expect(headers.get("x-powered-by")).toBeNull();
      expect(headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("every answer that is not a page carries the data set and no header meant for pages: a success, a 404, a 401, a 503, CSV, a redirect", async () => {
    const documentOnly = (await honoSecureHeaders()).map(([name]) => name).filter((name) => !(name in DATA_HEADERS));
    expect(documentOnly).toEqual(
      expect.arrayContaining(["x-frame-options", "referrer-policy", "cross-origin-opener-policy", "x-xss-protection"]),
    );
    const misconfigured = await createApp().fetch(
      new Request("https://avs.test/api/health"),
      productionEnv({ JWT_SECRET: undefined }),
      createExecutionContext(),
    );
    expect(misconfigured.status).toBe(503);
    const answers = {
      health: (await call("GET", "/api/health")).headers,
      notFound: (await call("GET", "/api/nope")).headers,
      unauthorized: (await call("GET", "/api/age-verification/session/ses_x")).headers,
      misconfigured: misconfigured.headers,
      csv: (await frameCall("/csv")).headers,
      redirect: (await frameCall("/redirect")).headers,
      powered: (await frameCall("/powered")).headers,
    };
    for (const [kind, headers] of Object.entries(answers)) {
      for (const [name, value] of Object.entries(DATA_HEADERS)) expect(headers.get(name), `${kind} ${name}`).toBe(value);
      for (const name of documentOnly) expect(headers.get(name), `${kind} ${name}`).toBeNull();
      expect(headers.get("x-powered-by"), kind).toBeNull();
      expect(headers.get("x-request-id"), kind).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A merchant's answer carries these and nothing else (content-length is the runtime's).
    const names = [...answers.health.keys()].filter((name) => name !== "content-length").sort();
    expect(names).toEqual([...Object.keys(DATA_HEADERS), "cache-control", "content-type", "x-request-id"].sort());
    // JSON gets no-store, the 503 too; CSV is the export's own business.
    expect(answers.misconfigured.get("cache-control")).toBe("no-store");
    expect(answers.health.get("cache-control")).toBe("no-store");
  });

  it("a route's own Content-Security-Policy on data is kept", async () => {
    expect((await frameCall("/own-policy")).headers.get("content-security-policy")).toBe("sandbox");
  });

  it("echoes a well-formed X-Request-Id and replaces a malformed or overlong one", async () => {
    expect((await call("GET", "/api/health", { headers: { "x-request-id": "abc-DEF_123=" } })).headers.get("x-request-id")).toBe(
      "abc-DEF_123=",
    );
    for (const bad of ["has space", "semi;colon", "x".repeat(256)]) {
      const id = (await call("GET", "/api/health", { headers: { "x-request-id": bad } })).headers.get("x-request-id");
      expect(id, bad).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await call("GET", "/api/health", { headers: { "x-request-id": "x".repeat(255) } })).headers.get("x-request-id")).toBe(
      "x".repeat(255),
    );
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
