// GET /docs: the API reference rendered from the served OpenAPI document.
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";

const STRICT =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

type Document = { info: { version: string }; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };

const unescape = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

describe("API reference at /docs", () => {
  it("is an HTML page under the strict CSP, with no script, loading only this Worker's stylesheet", async () => {
    const res = await call("GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toBe(STRICT);
    expect(res.text.startsWith("<!doctype html>")).toBe(true);
    expect(res.text).not.toMatch(/<script/);
    expect([...res.text.matchAll(/(?:src|href)="(https?:[^"]+)"/g)]).toEqual([]);
    expect(res.text).toMatch(/<link rel="stylesheet" href="\/assets\/app[^"]*\.css[^"]*"/);
  });

  it("has a section for every operation of /api/openapi.json, with each of its response statuses and error codes", async () => {
    const document = (await call("GET", "/api/openapi.json")).body as unknown as Document;
    const html = unescape((await call("GET", "/docs")).text);
    const sections = new Map([...html.matchAll(/<section class="card operation" id="([^"]+)" data-route="([^"]+)">([\s\S]*?)<\/section>/g)].map((m) => [m[2]!, { id: m[1]!, body: m[3]! }]));
    let count = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const section = sections.get(`${method.toUpperCase()} ${path}`);
        expect(section, `${method} ${path}`).toBeDefined();
        expect(section!.id).toBe(operation.operationId);
        expect(html).toContain(`href="#${operation.operationId}"`);
        for (const status of Object.keys(operation.responses)) expect(section!.body, `${method} ${path} ${status}`).toContain(`<strong>${status}</strong>`);
        const codes = JSON.stringify(operation.responses).match(/"error":\{"enum":\[("[A-Z_]+"(?:,"[A-Z_]+")*)\]/g) ?? [];
        const named = codes.flatMap((c) => [...c.matchAll(/"([A-Z_]{3,})"/g)].map((m) => m[1]!));
        expect(named.length, `${method} ${path} names error codes`).toBeGreaterThan(0);
        for (const code of named) expect(section!.body).toContain(`<code>${code}</code>`);
        count++;
      }
    }
    expect(sections.size).toBe(count);
    expect(count).toBeGreaterThan(30);
    expect(html).toContain(`API reference ${document.info.version}`);
  });

  it("shows the full example body of the open response", async () => {
    const html = unescape((await call("GET", "/docs")).text);
    const section = html.slice(html.indexOf('id="postApiAgeVerificationSession"'));
    expect(section).toContain('"session_id": "ses_');
    expect(section).toContain('"age_required": 18');
  });

  it("is linked from the console", async () => {
    expect((await call("GET", "/console")).text).toContain('href="/docs"');
  });
});
