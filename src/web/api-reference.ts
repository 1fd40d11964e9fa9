// The API reference's content, read from the OpenAPI document (public/api/openapi.json):
// every operation with its parameters, body, responses, error codes, an example of each body and of the
// request; and the callbacks the service sends (the document's `webhooks`) with their headers.
// Plain data, so that the page (api-reference-page.tsx) renders it and a test validates each example
// against the schema it was built from.
import { exampleOf, resolve as resolveIn, type JsonSchema } from "./schema-example";

const resolve = (schema: JsonSchema, document: ReferenceDocument) => resolveIn(schema, document);

export type ReferenceDocument = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  webhooks?: Record<string, Record<string, OperationObject>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, { description?: string; name?: string; type: string }>;
  };
};

type OperationObject = {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
};

export type Field = { path: string; type: string; required: boolean; note: string };

export type ReferenceBody = { mediaType: string; schema: JsonSchema; fields: Field[]; example: unknown };

export type ReferenceResponse = { status: string; description: string; codes: string[]; body?: ReferenceBody };

export type ReferenceOperation = {
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  security: string[];
  parameters: { name: string; in: string; required: boolean; type: string }[];
  requestBody?: ReferenceBody;
  responses: ReferenceResponse[];
  /** A curl command that calls it, with placeholders for the secrets and ids. */
  requestExample: string;
};

/** A callback event the service sends to the merchant's callback_url, from the document's `webhooks`. */
export type ReferenceCallback = {
  id: string;
  event: string;
  description?: string;
  headers: { name: string; description: string }[];
  body?: ReferenceBody;
};

/** The shell variables a request example expects, by security scheme. */
const SECURITY_HEADERS: Record<string, string> = {
  apiKey: "X-API-Key: $API_KEY",
  bearer: "Authorization: Bearer $ACCOUNT_TOKEN",
  webhookSignature: "X-SHA2-Signature: $SIGNATURE",
};

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const placeholder = (name: string) => `$${name.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`;

/**
 * The request as curl: this deployment's origin as $BASE_URL, path ids and required query and header
 * parameters as shell variables, the credentials of its security scheme, and the body's example.
 */
export function requestExample(operation: Omit<ReferenceOperation, "requestExample">): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => placeholder(name));
  const query = operation.parameters.filter((p) => p.in === "query" && p.required).map((p) => `${p.name}=${placeholder(p.name)}`);
  const lines = [`curl -X ${operation.method} "$BASE_URL${path}${query.length ? `?${query.join("&")}` : ""}"`];
  for (const scheme of operation.security) lines.push(`-H "${SECURITY_HEADERS[scheme] ?? scheme}"`);
  for (const p of operation.parameters.filter((p) => p.in === "header" && p.required)) lines.push(`-H "${p.name}: ${placeholder(p.name)}"`);
  const body = operation.requestBody;
  if (body) {
    lines.push(`-H "Content-Type: ${body.mediaType}"`);
    if (body.example !== undefined) lines.push(`-d ${shellQuote(JSON.stringify(body.example))}`);
  }
  return lines.join(" \\\n  ");
}

/** A short type label: "string", "integer 1–150", "one of A, B", "string | null". */
export function typeLabel(input: JsonSchema, document: ReferenceDocument): string {
  const schema = resolve(input, document);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(", ")}`;
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices) return choices.map((choice) => typeLabel(choice, document)).join(" | ");
  if (Array.isArray(schema.allOf)) return "object";
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "any");
  if (type === "array") return `array of ${typeLabel((schema.items ?? {}) as JsonSchema, document)}`;
  const bounds = [schema.minimum, schema.maximum].every((b) => typeof b === "number" && Math.abs(b as number) < 1e6)
    ? ` ${schema.minimum}–${schema.maximum}`
    : "";
  const lengths = typeof schema.maxLength === "number" ? ` ≤ ${schema.maxLength} chars` : "";
  const format = typeof schema.format === "string" ? ` (${schema.format})` : "";
  return `${type}${format}${bounds}${lengths}`;
}

/** The fields of an object schema, nested objects flattened to dotted paths (two levels deep). */
function fields(input: JsonSchema, document: ReferenceDocument, prefix = "", depth = 0): Field[] {
  const schema = resolve(input, document);
  if (Array.isArray(schema.allOf)) {
    // A later part narrows a field of an earlier one (the error enums): keep one line per field, the last.
    const byPath = new Map<string, Field>();
    for (const field of (schema.allOf as JsonSchema[]).flatMap((part) => fields(part, document, prefix, depth)))
      byPath.set(field.path, {
        ...byPath.get(field.path),
        ...field,
        required: field.required || (byPath.get(field.path)?.required ?? false),
      });
    return [...byPath.values()];
  }
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[]) ?? []);
  return Object.entries(properties).flatMap(([name, property]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const resolved = resolve(property, document);
    const own: Field = {
      path,
      type: typeLabel(property, document),
      required: required.has(name),
      note: typeof resolved.description === "string" ? resolved.description : "",
    };
    const item = resolved.type === "array" ? resolve((resolved.items ?? {}) as JsonSchema, document) : resolved;
    const nested =
      depth < 2 && item.type === "object" && item.properties
        ? fields(item, document, resolved.type === "array" ? `${path}[]` : path, depth + 1)
        : [];
    return [own, ...nested];
  });
}

function body(content: Record<string, { schema: JsonSchema }> | undefined, document: ReferenceDocument): ReferenceBody | undefined {
  const [mediaType, media] = Object.entries(content ?? {})[0] ?? [];
  if (!mediaType || !media) return undefined;
  const json = mediaType === "application/json";
  return {
    mediaType,
    schema: media.schema,
    fields: json ? fields(media.schema, document) : [],
    example: json ? exampleOf(media.schema, document) : undefined,
  };
}

/** The error codes a response names in its `error` enum. */
function codesOf(schema: JsonSchema | undefined): string[] {
  const parts = (schema?.allOf as JsonSchema[] | undefined) ?? [];
  for (const part of parts) {
    const error = (part.properties as Record<string, JsonSchema> | undefined)?.error;
    if (Array.isArray(error?.enum)) return error.enum as string[];
  }
  return [];
}

/** The callback events, in the document's order, with their signature headers and body. */
export function referenceCallbacks(document: ReferenceDocument): ReferenceCallback[] {
  return Object.entries(document.webhooks ?? {}).flatMap(([event, methods]) =>
    Object.values(methods).map((operation) => ({
      id: operation.operationId,
      event,
      description: operation.description,
      headers: (operation.parameters ?? [])
        .filter((p) => p.in === "header")
        .map((p) => ({ name: p.name, description: p.description ?? "" })),
      body: operation.requestBody ? body(operation.requestBody.content, document) : undefined,
    })),
  );
}

export function referenceOperations(document: ReferenceDocument): ReferenceOperation[] {
  const tagOrder = (document.tags ?? []).map((tag) => tag.name);
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .map(
        ([method, operation]): Omit<ReferenceOperation, "requestExample"> => ({
          id: operation.operationId,
          method: method.toUpperCase(),
          path,
          tag: operation.tags?.[0] ?? "Other",
          summary: operation.summary ?? `${method.toUpperCase()} ${path}`,
          description: operation.description,
          security: (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)),
          parameters: (operation.parameters ?? []).map((parameter) => ({
            name: parameter.name,
            in: parameter.in,
            required: parameter.required ?? false,
            type: typeLabel(parameter.schema ?? {}, document),
          })),
          requestBody: operation.requestBody ? body(operation.requestBody.content, document) : undefined,
          responses: Object.entries(operation.responses).map(([status, response]) => {
            const first = Object.values(response.content ?? {})[0];
            return { status, description: response.description, codes: codesOf(first?.schema), body: body(response.content, document) };
          }),
        }),
      )
      .map((operation) => ({ ...operation, requestExample: requestExample(operation) })),
  );
  const rank = (tag: string) => (tagOrder.includes(tag) ? tagOrder.indexOf(tag) : tagOrder.length);
  return operations.sort((a, b) => rank(a.tag) - rank(b.tag));
}
