import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { asset } from "../helpers/static-assets";

describe("OpenAPI document", () => {
  it("is served as OpenAPI 3.1 with version 1.2.0, the spec's tags and both security schemes", async () => {
    // A static asset (public/api/openapi.json), generated from the app by `npm run openapi`.
    const res = await asset("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = res.body as any;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.2.0");
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(["Health", "Auth", "Users", "KYC", "Verification", "API keys", "Usage", "Webhooks"]),
    );
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
  });

  it("documents every mounted route, each with a tag", async () => {
    const app = createApp();
    const doc = (await asset("/api/openapi.json")).body as any;
    const mounted = app.routes
      .filter((r) => r.method !== "ALL" && r.path.startsWith("/api/"))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    for (const route of new Set(mounted)) {
      const [method, path] = route.split(" ") as [string, string];
      expect(doc.paths[path]?.[method], `${route} is missing from the document`).toBeDefined();
      expect(doc.paths[path][method].tags.length, `${route} has no tag`).toBe(1);
    }
  });
});
