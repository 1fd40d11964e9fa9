// Example values for the API reference (/docs), built from the OpenAPI document's JSON Schemas, so an
// example can never describe a field the API does not have. A test validates every example this builds
// against the schema it came from (test/node/doc-examples.test.ts): a pattern or format this file does
// not know fails there, not in a reader's client.

export type JsonSchema = { [key: string]: unknown };
type Document = { components?: { schemas?: Record<string, JsonSchema> } };

const DATE_TIME = "2026-05-01T12:00:00.000Z";
const DATE = "2026-05-01";

/** Named examples for strings a field name or a pattern makes recognisable. */
function exampleString(schema: JsonSchema, name: string): string {
  const pattern = typeof schema.pattern === "string" ? schema.pattern : "";
  if (schema.format === "date-time") return DATE_TIME;
  if (schema.format === "date") return DATE;
  if (schema.format === "email" || name.toLowerCase().includes("email")) return "ada@example.com";
  // Prefixed ids: ^key_[A-Za-z0-9_-]{24}$ and the like.
  const id = /^\^([a-z]+)_\[A-Za-z0-9_-\]\{(\d+)\}\$$/.exec(pattern);
  if (id) return `${id[1]}_${"x".repeat(Number(id[2]))}`;
  if (/url$/i.test(name)) return "https://shop.example.com/webhooks/age";
  if (name === "session_id") return "ses_4bVqg2m0aW3cKx9yTq1Zr7Hd";
  if (name === "nonce") return "n0nce-from-the-open-response";
  if (name === "receipt_id") return "rcpt_Qm4v2TsN8cW1bYx0LpR6aZ3k";
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  const text = (name === "password" || name.endsWith("Password") ? "correct-horse-battery" : "text").padEnd(minLength, "x");
  if (!pattern) return text;
  // Any other pattern (a document number's ^[A-Z0-9]{1,20}$, …): the first sample it accepts.
  const accepts = new RegExp(pattern, "u");
  return [text, ...PATTERN_SAMPLES.map((sample) => sample.padEnd(minLength, sample.at(-1)))].find((sample) => accepts.test(sample)) ?? text;
}

/** Plain samples tried, in order, against a pattern the named cases above do not know. */
const PATTERN_SAMPLES = ["P1234567", "p1234567", "12345678", "ABCDEFGH", "abcdefgh"];

/** The schema a `$ref` (into #/components/schemas) points to, or the schema itself. */
export function resolve(schema: JsonSchema, document: Document): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace("#/components/schemas/", "");
  return resolve(document.components?.schemas?.[name] ?? {}, document);
}

/** One example value that satisfies `schema` (resolving `$ref`s into `document`). */
export function exampleOf(input: JsonSchema, document: Document, name = ""): unknown {
  const schema = resolve(input, document);
  if ("example" in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.allOf)) {
    // An envelope narrowed by a second schema (error enums): merge the object parts, later ones win.
    const parts = schema.allOf.map((part) => resolve(part as JsonSchema, document));
    const merged: JsonSchema = { type: "object", properties: {}, required: [] };
    for (const part of parts) {
      Object.assign(merged.properties as object, part.properties ?? {});
      (merged.required as string[]).push(...((part.required as string[]) ?? []));
    }
    // A property narrowed in a later part keeps the constraints of both: take the narrower one.
    const properties = merged.properties as Record<string, JsonSchema>;
    for (const part of parts)
      for (const [key, value] of Object.entries((part.properties ?? {}) as Record<string, JsonSchema>))
        properties[key] = { ...properties[key], ...value };
    return exampleOf(merged, document, name);
  }
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices?.length) return exampleOf(choices.find((c) => c.type !== "null") ?? choices[0]!, document, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, exampleOf(value, document, key)]));
    }
    case "array": {
      const items = exampleOf((schema.items ?? {}) as JsonSchema, document, name);
      const min = typeof schema.minItems === "number" ? schema.minItems : 1;
      return Array.from({ length: Math.max(1, min) }, () => items);
    }
    case "integer":
    case "number": {
      const min = typeof schema.minimum === "number" && schema.minimum > -1e6 ? schema.minimum : undefined;
      const max = typeof schema.maximum === "number" && schema.maximum < 1e6 ? schema.maximum : undefined;
      if (name === "age_required") return 18;
      return min ?? (max !== undefined ? Math.min(0, max) : 1);
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "string":
      return exampleString(schema, name);
    default:
      return {};
  }
}
