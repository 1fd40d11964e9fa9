// The Hono app, built the same way by the Worker entry and by the tests.
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { errorResponse, handleError, notFound } from "./errors";
import type { AppEnv } from "./env";
import { accessLog } from "./http/access-log";
import { limitBody, requireJsonBody } from "./http/body-guard";
import { requireConfiguration } from "./http/guards";
import { describe } from "./http/openapi-meta";
import { buildOpenApiDocument } from "./http/openapi-document";
import { healthRoutes } from "./routes/health";
import { usageRoutes } from "./routes/usage";

export function createApp() {
  const app = new Hono<AppEnv>();

  app.use(requestId({ headerName: "X-Request-Id" }));
  app.use(accessLog);
  app.use(secureHeaders({ crossOriginResourcePolicy: "same-origin" }));
  app.use(requireConfiguration);
  app.use("/api/*", limitBody, requireJsonBody);

  app.route("/api", healthRoutes);
  app.route("/api/usage", usageRoutes);

  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get(
    "/api/openapi.json",
    describe({ tag: "Health", summary: "This OpenAPI 3.1 document", responses: { 200: { description: "The document", content: { type: "application/json", schema: { type: "object" } } } } }),
    (c) => c.json((document ??= buildOpenApiDocument(app))),
  );

  app.notFound((c) => errorResponse(c, notFound("Route")));
  app.onError(handleError);
  return app;
}
