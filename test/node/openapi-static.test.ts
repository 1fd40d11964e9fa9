// GET /api/openapi.json and GET /docs are static assets (public/, wrangler.toml [assets]): the document
// and the reference page cannot change while a deployment lives, so they are generated here from the
// app's routes and checked in, and the Worker's script carries neither the builder nor zod's JSON Schema
// code (docs/performance.md). This test generates both again and compares with the checked-in files, so
// a route, schema or description changed without regenerating fails here. `npm run openapi` runs it
// with --update, which writes the files.
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { buildOpenApiDocument } from "../../src/http/openapi-document";
import { renderApiReferencePage } from "../../src/web/api-reference-page";

// The document as served: through JSON, as on the wire.
const document = JSON.parse(JSON.stringify(buildOpenApiDocument(createApp())));

describe("static API description", () => {
  it("public/api/openapi.json is the document built from the app's routes", async () => {
    expect(Object.keys(document.paths)).toContain("/api/age-verification/session");
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot("../../public/api/openapi.json");
  });

  it("public/docs.html is the reference page rendered from that document", async () => {
    const html = await renderApiReferencePage(document);
    expect(html).toContain('id="postApiAgeVerificationSession"');
    await expect(html).toMatchFileSnapshot("../../public/docs.html");
  });
});
