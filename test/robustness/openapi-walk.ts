// Walks the OpenAPI document the service serves and holds responses to it with a real JSON Schema
// validator (Ajv, draft 2020-12, with formats). Ajv compiles validators with `new Function`, which the
// workers test pool allows (the deployed Worker does not, and never loads this file).
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { createApp } from "../../src/app";
import { STATIC_ASSET } from "../../src/http/openapi-document";
import { asset } from "../helpers/static-assets";

export type Schema = Record<string, any>;
export type Parameter = { name: string; in: "path" | "query" | "header"; required: boolean; schema: Schema };
export type Operation = {
  method: string;
  /** OpenAPI path, with {id} placeholders. */
  path: string;
  key: string;
  security: "bearer" | "apiKey" | "webhookSignature" | null;
  parameters: Parameter[];
  body: Schema | null;
  /** The document says the body may not be left out. */
  bodyRequired: boolean;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

const DOCUMENT_ID = "https://avs.test/api/openapi.json";

let loaded: { document: Schema; operations: Operation[]; ajv: Ajv2020 } | undefined;

/**
 * The served document (a static file, public/api/openapi.json), the operations the Worker serves, and an
 * Ajv instance that knows the document by its URL. Operations marked x-static-asset (the document itself)
 * are served by the asset router, not the Worker, and are not walked.
 */
export async function loadDocument() {
  if (loaded) return loaded;
  const res = await asset("/api/openapi.json");
  expect(res.status).toBe(200);
  const document = res.body as unknown as Schema;
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(methods)) {
      if (op[STATIC_ASSET]) continue;
      const security = op.security?.[0] ? (Object.keys(op.security[0])[0] as Operation["security"]) : null;
      operations.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        security,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.["application/json"]?.schema ?? null,
        bodyRequired: op.requestBody?.required === true,
        responses: op.responses,
      });
    }
  }
  // strict: false because the document is not a schema itself; only the pointers into it are used as schemas.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  loaded = { document, operations, ajv };
  return loaded;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

const validators = new Map<string, ReturnType<Ajv2020["compile"]>>();

function validatorFor(ajv: Ajv2020, op: Operation, status: string, type: string) {
  const ref = `${DOCUMENT_ID}#/${pointer("paths", op.path, op.method.toLowerCase(), "responses", status, "content", type, "schema")}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

export type Response = { status: number; headers: Headers; body: any; text: string };

/**
 * The response's status is documented for the operation, and its body validates against the schema the
 * document gives for that status (error responses name their codes in an enum, so the code is checked too).
 * Returns a description of the mismatch, or null.
 */
export async function conformanceProblem(op: Operation, res: Response): Promise<string | null> {
  const { ajv } = await loadDocument();
  const documented = op.responses[String(res.status)];
  if (!documented) return `${op.key}: status ${res.status} is not documented (${res.text.slice(0, 300)})`;
  const content = documented.content;
  if (!content) return res.text === "" ? null : `${op.key}: ${res.status} should have no body`;
  const contentType = res.headers.get("content-type") ?? "";
  const type = Object.keys(content).find((t) => contentType.startsWith(t));
  if (!type) return `${op.key}: ${res.status} answered ${contentType}, documented ${Object.keys(content).join(", ")}`;
  const value = type === "application/json" ? res.body : res.text;
  if (type === "application/json" && value === undefined) return `${op.key}: ${res.status} body is not JSON`;
  const validate = validatorFor(ajv, op, String(res.status), type);
  if (validate(value)) return null;
  return `${op.key}: ${res.status} body does not match the document: ${ajv.errorsText(validate.errors)} in ${res.text.slice(0, 300)}`;
}

export async function expectConforms(op: Operation, res: Response) {
  const problem = await conformanceProblem(op, res);
  if (problem) throw new Error(problem);
}

/** Counts of generated cases per route, printed by the suites so the closing note can quote them. */
/**
 * The JSON API routes the app serves, read from its router rather than from the document
 * ("GET /api/keys/{id}"), so a route the document lost, or a walk that ran nothing, is noticed.
 */
export function servedApiRoutes(): string[] {
  const keys = createApp()
    .routes.filter((route) => route.method !== "ALL" && route.path.startsWith("/api/"))
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
  return [...new Set(keys)].sort();
}

/**
 * The closing check of a walk: every served route is in the document, and each was run at least `runs`
 * times. Fails (rather than passing on an empty map) if it runs before the routes' tests or without them.
 */
export function expectEveryRouteExercised(operations: Operation[], runs: number) {
  const served = servedApiRoutes();
  // The API has had 35 routes since 1.0.0; fewer means the router (or this reading of it) lost some.
  expect(served.length).toBeGreaterThanOrEqual(35);
  expect(operations.map((op) => op.key).sort()).toEqual(served);
  expect([...caseCounts.keys()].sort()).toEqual(served);
  for (const key of served) expect(caseCounts.get(key), key).toBeGreaterThanOrEqual(runs);
}

export const caseCounts = new Map<string, number>();
export const countCase = (label: string) => caseCounts.set(label, (caseCounts.get(label) ?? 0) + 1);
export function printCaseCounts(title: string) {
  const lines = [...caseCounts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `  ${String(v).padStart(5)}  ${k}`);
  console.log(`${title}\n${lines.join("\n")}`);
}
