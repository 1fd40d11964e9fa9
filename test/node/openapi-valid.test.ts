// Validates the generated document with a real OpenAPI 3.1 validator from npm. It runs in Node
// because the validator reads its JSON schemas from node_modules.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { buildOpenApiDocument } from "../../src/http/openapi-document";

describe("OpenAPI document", () => {
  it("passes the OpenAPI 3.1 schema validator", async () => {
    const document = buildOpenApiDocument(createApp());
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
