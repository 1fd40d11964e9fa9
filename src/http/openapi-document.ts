// Builds the OpenAPI 3.1 document from the mounted routes and the metadata their middleware carries.
// Not part of the Worker: test/node/openapi-static.test.ts writes the document to public/api/openapi.json
// and the reference page to public/docs.html (`npm run openapi`), served as static assets.
import type { Hono } from "hono";
import type { $ZodType } from "zod/v4/core";
import { ERROR_CODES, type CodeOf, type ErrorCode, type ErrorStatus } from "../errors";
import { webhooksSection } from "./openapi-callbacks";
import { jsonSchema } from "./openapi-json-schema";
import { readMeta, type OperationMeta, type ResponseDoc } from "./openapi-meta";
import { API_VERSION } from "./api-version";

export { API_VERSION };

const TAGS = [
  { name: "Health", description: "Liveness and the API description." },
  { name: "Auth", description: "Register, sign in, email verification, password reset." },
  { name: "Users", description: "Profile, password and email change, account deletion." },
  { name: "KYC", description: "Identity verification of end users, for the service's own apps." },
  { name: "Verification", description: "Age-verification sessions: merchant and end-user side." },
  { name: "API keys", description: "Merchant API keys for verified business accounts." },
  { name: "Usage", description: "Session log, export and totals. Contains no end-user identity." },
  {
    name: "Attestations",
    description:
      "Proof-of-age attestations for a verified adult's wallet (OpenID4VCI; the wallet's own endpoints are in docs/attestations.md).",
  },
  { name: "Webhooks", description: "Inbound identity-provider webhooks." },
];

const ERROR_ENVELOPE = {
  type: "object",
  required: ["success", "error", "message", "errors"],
  properties: {
    success: { const: false },
    error: { type: "string", enum: ERROR_CODES, description: "Stable UPPER_SNAKE machine code." },
    message: { type: "string", description: "For people; may change." },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

const SECURITY_SCHEMES = {
  bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Account JWT from login or register." },
  apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "Merchant API key (svc_sk_…). Server-side only." },
  webhookSignature: {
    type: "apiKey",
    in: "header",
    name: "X-SHA2-Signature",
    description: "Hex HMAC-SHA256 of the raw body with the provider's webhook token.",
  },
};

/** What a status means when a route does not say more; the codes it names come from GENERIC_CODES. */
const STATUS_TEXT: Partial<Record<ErrorStatus, string>> = {
  400: "Malformed JSON or invalid token",
  401: "Missing, invalid or expired credential",
  404: "Not found",
  413: "Body over 64 KiB",
  415: "Body is not application/json",
  422: "Validation failed, one item per problem in errors",
  429: "Rate limited; see Retry-After",
  500: "Internal error",
  503: "The deployment is misconfigured: errors names each setting and its rule, never a value",
};

function successBody(doc: ResponseDoc) {
  if (doc.content) return { content: { [doc.content.type]: { schema: doc.content.schema } } };
  const properties: Record<string, unknown> = { success: { const: true }, message: { type: "string" } };
  if (doc.data) properties.data = jsonSchema(doc.data, "output");
  const required = doc.data ? ["success", "data"] : ["success"];
  return { content: { "application/json": { schema: { type: "object", required, properties } } } };
}

/** The codes a status carries on every route where the middleware adds that status (docs/api-contract.md §Conventions). */
const GENERIC_CODES: { [S in ErrorStatus]?: readonly CodeOf<S>[] } = {
  400: ["MALFORMED_JSON"],
  401: ["UNAUTHORIZED"],
  404: ["NOT_FOUND"],
  413: ["PAYLOAD_TOO_LARGE"],
  415: ["UNSUPPORTED_MEDIA_TYPE"],
  422: ["VALIDATION_FAILED"],
  429: ["RATE_LIMITED"],
  500: ["INTERNAL_ERROR"],
  503: ["MISCONFIGURED"],
};

const genericCodes = (status: number): readonly ErrorCode[] => GENERIC_CODES[status as ErrorStatus] ?? [];

/** The text of a status no route describes: its meaning and the generic codes it carries. */
function statusText(status: number): string {
  const text = STATUS_TEXT[status as ErrorStatus];
  if (!text) return "Error";
  const codes = genericCodes(status);
  return codes.length ? `${text} (${codes.join(", ")})` : text;
}

/** Methods whose requests can carry a body, which the body guard reads on every route (400, 413, 415). */
const BODY_METHODS = new Set(["post", "put", "patch", "delete"]);

function responses(meta: OperationMeta, method: string) {
  const out: Record<string, unknown> = {};
  const statuses = new Set<number>([...Object.keys(meta.responses ?? {}).map(Number), 500, 503]);
  // Statuses the shared middleware adds; their generic codes apply besides any the route documents.
  const generic = new Set<number>([500, 503]);
  if (BODY_METHODS.has(method)) for (const s of [400, 413, 415]) generic.add(s);
  if (meta.body) generic.add(422);
  if (meta.query || meta.headers) generic.add(422);
  if (meta.security === "bearer" || meta.security === "apiKey") generic.add(401);
  for (const s of generic) statuses.add(s);
  for (const status of [...statuses].sort()) {
    const responses = meta.responses as Record<number, (ResponseDoc & { codes?: readonly ErrorCode[] }) | undefined> | undefined;
    const doc = responses?.[status];
    if (status < 400 && doc) {
      out[status] = { description: doc.description, ...(status === 204 ? {} : successBody(doc)) };
      continue;
    }
    const documented = doc?.codes ?? [];
    const codes = [...new Set([...documented, ...(generic.has(status) || documented.length === 0 ? genericCodes(status) : [])])];
    const named = documented.length ? ` Codes: ${documented.join(", ")}.` : "";
    // The enum makes the codes machine-checkable: a client (and our tests) can validate `error` against it.
    const schema = codes.length
      ? { allOf: [{ $ref: "#/components/schemas/ErrorEnvelope" }, { properties: { error: { enum: codes } } }] }
      : { $ref: "#/components/schemas/ErrorEnvelope" };
    out[status] = {
      description: `${doc?.description ?? statusText(status)}${named}`,
      content: { "application/json": { schema } },
    };
  }
  return out;
}

function queryParameters(schema: $ZodType, where: "query" | "header" = "query") {
  const json = jsonSchema(schema, "input") as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** One entry per method and path, with the metadata of every handler registered on it merged. */
export function collectOperations(app: Pick<Hono, "routes">) {
  const operations = new Map<string, { method: string; path: string; meta: OperationMeta }>();
  for (const route of app.routes) {
    // The apps' HTML pages (src/routes/pages.tsx, src/routes/assets.ts) are not part of the JSON API.
    if (route.method === "ALL" || !route.path.startsWith("/api/")) continue;
    const key = `${route.method} ${route.path}`;
    const entry = operations.get(key) ?? { method: route.method.toLowerCase(), path: route.path, meta: {} };
    const meta = readMeta(route.handler);
    if (meta) entry.meta = { ...entry.meta, ...meta, responses: { ...entry.meta.responses, ...meta.responses } };
    operations.set(key, entry);
  }
  return [...operations.values()];
}

/**
 * Marks an operation served by Workers Static Assets (public/, wrangler.toml [assets]) rather than by the
 * Worker's router: it never passes the Worker's middleware, so it has none of its error statuses.
 */
export const STATIC_ASSET = "x-static-asset";

/** GET /api/openapi.json: this document, as the static file public/api/openapi.json. */
const STATIC_PATHS = {
  "/api/openapi.json": {
    get: {
      operationId: "getApiOpenapiJson",
      tags: ["Health"],
      summary: "This OpenAPI 3.1 document",
      description:
        "A static file generated from the routes' schemas with each release (cached for 5 minutes); the reference page at /docs is rendered from it.",
      parameters: [],
      security: [],
      responses: { 200: { description: "The document", content: { "application/json": { schema: { type: "object" } } } } },
      [STATIC_ASSET]: true,
    },
  },
};

export function buildOpenApiDocument(app: Pick<Hono, "routes">) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, path, meta } of collectOperations(app)) {
    const openApiPath = toOpenApiPath(path);
    const pathParameters = [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const operation: Record<string, unknown> = {
      operationId: `${method}${openApiPath.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      tags: meta.tag ? [meta.tag] : [],
      summary: meta.summary ?? `${method.toUpperCase()} ${openApiPath}`,
      ...(meta.description || meta.devOnly
        ? {
            description: [meta.description, meta.devOnly ? "Development configuration only; 404 in production." : ""]
              .filter(Boolean)
              .join(" "),
          }
        : {}),
      parameters: [
        ...pathParameters,
        ...(meta.query ? queryParameters(meta.query) : []),
        ...(meta.headers ? queryParameters(meta.headers, "header") : []),
      ],
      security: meta.security ? [{ [meta.security]: [] }] : [],
      responses: responses(meta, method),
    };
    if (meta.body) {
      const schema = jsonSchema(meta.body, "input");
      // A body whose every field is optional may be left out (DELETE /api/users/account after a fresh sign-in).
      const required = Array.isArray(schema.required) && schema.required.length > 0;
      operation.requestBody = { required, content: { "application/json": { schema } } };
    }
    (paths[openApiPath] ??= {})[method] = operation;
  }
  Object.assign(paths, STATIC_PATHS);
  return {
    openapi: "3.1.0",
    info: {
      title: "Age-Verification Service",
      version: API_VERSION,
      description:
        "Lets a merchant learn that an end user is at least a required age without handling identity documents. " +
        "Every response is the envelope { success, data?, message?, error?, errors? }. " +
        "Every response carries X-Request-Id (the caller's when well-formed, else a new one) and the security headers for data: " +
        "Content-Security-Policy default-src 'none'; frame-ancestors 'none', Cross-Origin-Resource-Policy same-origin, Strict-Transport-Security and X-Content-Type-Options nosniff " +
        "(the pages' headers, such as X-Frame-Options, are the pages' only); JSON answers are Cache-Control no-store.",
    },
    servers: [{ url: "/", description: "This deployment" }],
    tags: TAGS,
    paths,
    webhooks: webhooksSection(),
    components: { schemas: { ErrorEnvelope: ERROR_ENVELOPE }, securitySchemes: SECURITY_SCHEMES },
  };
}
