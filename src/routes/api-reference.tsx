// GET /docs: the API reference page, rendered from the OpenAPI document that /api/openapi.json serves.
// The document is passed in (app.ts builds it from the mounted routes); the HTML is rendered once per
// isolate, since the document cannot change while the isolate lives.
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { ApiReferencePage } from "../web/api-reference-page";
import type { ReferenceDocument } from "../web/api-reference";
import { strictPolicy } from "../web/csp";

export function apiReferenceRoute(openApiDocument: () => object) {
  let html: string | Promise<string> | undefined;
  const route = new Hono<AppEnv>();
  route.get("/", strictPolicy, async (c) => {
    html ??= (<ApiReferencePage document={openApiDocument() as ReferenceDocument} />).toString();
    c.header("Cache-Control", "public, max-age=300");
    return c.html(await html);
  });
  return route;
}
