import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call } from "../helpers/http";

describe("health", () => {
  it("answers ok with the interface version after a D1 round trip", async () => {
    const res = await call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: "ok", version: "1.2.0" } });
  });

  it("answers 503 with the error envelope when D1 does not answer", async () => {
    const brokenDb = { prepare: () => ({ first: () => Promise.reject(new Error("D1_ERROR: no such database")) }) };
    const res = await createApp().fetch(
      new Request("https://avs.test/api/health"),
      { ...env, DB: brokenDb as unknown as D1Database },
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ success: false, error: "UNAVAILABLE", errors: [] });
    expect(JSON.stringify(body)).not.toContain("D1_ERROR");
  });
});
