/// <reference types="vite/client" />
// Examples that cannot rot: every JSON example in README.md and docs/**/*.md, and every example the API
// reference (/docs) shows, validates against the OpenAPI document the Worker serves. A doc's ```json
// block names its schema in the comment right above it (docs/README.md, "Examples in the docs").
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { buildOpenApiDocument } from "../../src/http/openapi-document";
import { referenceOperations, type ReferenceDocument } from "../../src/web/api-reference";

const docs = import.meta.glob<string>(["../../README.md", "../../CHANGELOG.md", "../../docs/**/*.md"], {
  query: "?raw",
  import: "default",
  eager: true,
});

const document = buildOpenApiDocument(createApp());
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, "openapi");

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const ref = (...parts: string[]) => ({ $ref: `openapi#/${pointer(...parts)}` });

/** A callback body: one of the event bodies of the document's `webhooks` section (the test event included). */
const CALLBACK = {
  anyOf: Object.keys((document as unknown as { webhooks: Record<string, unknown> }).webhooks).map((type) =>
    ref("webhooks", type, "post", "requestBody", "content", "application/json", "schema"),
  ),
};

/** The schema a marker names, or a reason it names none. */
function schemaFor(marker: string): object | string {
  if (marker === "callback") return CALLBACK;
  if (/^none: \S/.test(marker)) return marker;
  const match = /^(GET|POST|PUT|PATCH|DELETE) (\/\S+) (request|\d{3})$/.exec(marker);
  if (!match) throw new Error(`unknown schema marker "${marker}"`);
  const [, method, path, what] = match as unknown as [string, string, string, string];
  const operation = (document.paths as Record<string, Record<string, any>>)[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`marker "${marker}": no ${method} ${path} in the OpenAPI document`);
  if (what === "request") {
    if (!operation.requestBody) throw new Error(`marker "${marker}": the operation takes no body`);
    return ref("paths", path, method.toLowerCase(), "requestBody", "content", "application/json", "schema");
  }
  if (!operation.responses[what]?.content?.["application/json"]) throw new Error(`marker "${marker}": no JSON response ${what}`);
  return ref("paths", path, method.toLowerCase(), "responses", what, "content", "application/json", "schema");
}

type Example = { file: string; line: number; marker: string | null; json: string };

/** Every ```json block of a markdown text, with the schema marker on the line above it (if any). */
function jsonBlocks(file: string, text: string): Example[] {
  const lines = text.split("\n");
  const blocks: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```json") continue;
    const end = lines.findIndex((line, j) => j > i && line.trim() === "```");
    const marker = /^<!-- schema: (.+?) -->$/.exec(lines[i - 1]?.trim() ?? "")?.[1] ?? null;
    blocks.push({ file, line: i + 1, marker, json: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return blocks;
}

const examples = Object.entries(docs).flatMap(([path, text]) => jsonBlocks(path.replace("../../", ""), text));

describe("JSON examples in the docs", () => {
  it("finds the README's open response, poll and callback", () => {
    const readme = examples.filter((e) => e.file === "README.md").map((e) => e.marker);
    expect(readme).toEqual(
      expect.arrayContaining(["POST /api/age-verification/session 201", "GET /api/age-verification/session/{id} 200", "callback"]),
    );
  });

  it.each(examples.map((e) => [`${e.file}:${e.line}`, e] as const))("%s names its schema and validates against it", (_where, example) => {
    expect(example.marker, "a ```json block needs <!-- schema: … --> on the line above").not.toBeNull();
    const schema = schemaFor(example.marker!);
    const value = JSON.parse(example.json) as unknown;
    if (typeof schema === "string") return;
    const validate = ajv.compile(schema);
    expect(validate(value) ? [] : validate.errors).toEqual([]);
  });

  it("a marker finds a body that breaks its schema (the check can fail)", () => {
    const [bad] = jsonBlocks(
      "x.md",
      '<!-- schema: GET /api/age-verification/session/{id} 200 -->\n```json\n{"success": true, "data": {"status": "MAYBE"}}\n```\n',
    );
    expect(ajv.compile(schemaFor(bad!.marker!) as object)(JSON.parse(bad!.json))).toBe(false);
    expect(() => schemaFor("GET /api/no/such/route 200")).toThrow(/no GET/);
    const callback = JSON.parse(examples.find((e) => e.marker === "callback")!.json);
    expect(ajv.compile(CALLBACK)({ ...callback, type: "age_verification.session.pending" })).toBe(false);
  });
});

describe("examples of the API reference (/docs)", () => {
  const bodies = referenceOperations(document as unknown as ReferenceDocument).flatMap((operation) => [
    ...(operation.requestBody?.example !== undefined
      ? [
          {
            name: `${operation.method} ${operation.path} request`,
            ref: ref(
              "paths",
              operation.path,
              operation.method.toLowerCase(),
              "requestBody",
              "content",
              operation.requestBody.mediaType,
              "schema",
            ),
            example: operation.requestBody.example,
          },
        ]
      : []),
    ...operation.responses.flatMap((response) =>
      response.body?.example !== undefined
        ? [
            {
              name: `${operation.method} ${operation.path} ${response.status}`,
              ref: ref(
                "paths",
                operation.path,
                operation.method.toLowerCase(),
                "responses",
                response.status,
                "content",
                response.body.mediaType,
                "schema",
              ),
              example: response.body.example,
            },
          ]
        : [],
    ),
  ]);

  it("has an example for every JSON request and response body", () => {
    const jsonBodies = JSON.stringify(document.paths).match(/"application\/json"/g)!.length;
    expect(bodies.length).toBe(jsonBodies);
    expect(bodies.length).toBeGreaterThan(100);
  });

  it.each(bodies.map((b) => [b.name, b] as const))("%s: the example validates against its schema", (_name, body) => {
    const validate = ajv.compile(body.ref);
    expect(validate(body.example) ? [] : validate.errors).toEqual([]);
  });
});
