// The Hono app, built the same way by the Worker entry and by the tests.
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { notFound } from "./errors";
import type { AppEnv } from "./http/app-env";
import { requestLog } from "./http/request-log";
import { errorResponse, handleError } from "./http/error-envelope";
import { limitBody, requireJsonBodyOutsideWebhooks } from "./http/body-guard";
import { noStoreJson } from "./http/no-store";
import { provideDomainContext } from "./http/domain-context";
import { requireConfiguration } from "./http/guards";
import { describe } from "./http/openapi-meta";
import { buildOpenApiDocument } from "./http/openapi-document";
import { authRoutes } from "./routes/auth";
import { devRoutes } from "./routes/dev";
import { healthRoutes } from "./routes/health";
import { keyRoutes } from "./routes/keys";
import { userRoutes } from "./routes/users";
import { passkeyRoutes } from "./routes/passkeys";
import { verificationRoutes } from "./routes/verification";
import { kycRoutes } from "./routes/kyc";
import { webhookRoutes } from "./routes/webhooks";
import { usageRoutes } from "./routes/usage";
import { pageRoutes } from "./routes/pages";
import { apiReferenceRoute } from "./routes/api-reference";
import { jwksRoutes } from "./routes/jwks";

export function createApp() {
  const app = new Hono<AppEnv>();

  app.use(requestId({ headerName: "X-Request-Id" }));
  app.use(provideDomainContext);
  app.use(requestLog);
  app.use(secureHeaders({ crossOriginResourcePolicy: "same-origin" }));
  app.use(noStoreJson);
  app.use(requireConfiguration);
  app.use("/api/*", limitBody, requireJsonBodyOutsideWebhooks);

  app.route("/api", healthRoutes);
  app.route("/api/auth", authRoutes);
  app.route("/api/users/me/passkeys", passkeyRoutes);
  app.route("/api/users", userRoutes);
  app.route("/api/keys", keyRoutes);
  app.route("/api/age-verification", verificationRoutes);
  app.route("/api/dev", devRoutes);
  app.route("/api/kyc", kycRoutes);
  app.route("/api/webhooks", webhookRoutes);
  app.route("/api/usage", usageRoutes);
  app.route("/.well-known", jwksRoutes);
  app.route("/", pageRoutes);

  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get(
    "/api/openapi.json",
    describe({ tag: "Health", summary: "This OpenAPI 3.1 document", responses: { 200: { description: "The document", content: { type: "application/json", schema: { type: "object" } } } } }),
    (c) => c.json((document ??= buildOpenApiDocument(app))),
  );
  // The API reference, rendered from the same document (built once per isolate).
  app.route("/docs", apiReferenceRoute(() => (document ??= buildOpenApiDocument(app))));

  app.notFound((c) => errorResponse(c, notFound("Route")));
  app.onError(handleError);
  return app;
}
