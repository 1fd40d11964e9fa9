// The Hono app, built the same way by the Worker entry and by the tests.
import { Hono } from "hono";
import { notFound } from "./errors";
import type { AppEnv } from "./http/app-env";
import { errorResponse, handleError } from "./http/error-envelope";
import { guardBody } from "./http/body-guard";
import { requestFrame } from "./http/request-frame";
import { serviceContext } from "./service";
import { mountArea } from "./routes/named-route";
import { authRoutes } from "./routes/auth";
import { devRoutes } from "./routes/dev";
import { healthRoutes } from "./routes/health";
import { keyRoutes } from "./routes/keys";
import { userRoutes } from "./routes/users";
import { passkeyRoutes } from "./routes/passkeys";
import { verificationRoutes } from "./routes/verification";
import { kycRoutes } from "./routes/kyc";
import { webhookRoutes } from "./routes/provider-webhooks";
import { usageRoutes } from "./routes/usage";
import { jwksRoutes } from "./routes/jwks";
import { ageTokenRoutes, issuerDirectoryRoutes } from "./routes/age-tokens";
import { attestationRoutes, issuanceRoutes, issuerMetadataRoutes } from "./routes/attestations";
import { verifyAppRoutes } from "./apps/verify/verify-routes";
import { consoleAppRoutes } from "./apps/console/console-routes";
import { accountAppRoutes } from "./apps/account/account-routes";
import { mountDevelopmentPages } from "./apps/dev/dev-routes";

export function createApp() {
  const app = new Hono<AppEnv>();

  // Request id, service context, the configuration check (503 MISCONFIGURED), security headers, no-store
  // JSON and the failure log line (request-frame.ts).
  app.use(requestFrame(serviceContext));
  app.use("/api/*", guardBody);

  mountArea(app, "/api", healthRoutes);
  mountArea(app, "/api/auth", authRoutes);
  mountArea(app, "/api/users/me/passkeys", passkeyRoutes);
  mountArea(app, "/api/users", userRoutes);
  mountArea(app, "/api/keys", keyRoutes);
  mountArea(app, "/api/age-verification", verificationRoutes);
  mountArea(app, "/api/dev", devRoutes);
  mountArea(app, "/api/kyc", kycRoutes);
  mountArea(app, "/api/webhooks", webhookRoutes);
  mountArea(app, "/api/usage", usageRoutes);
  mountArea(app, "/api/age-tokens", ageTokenRoutes);
  mountArea(app, "/.well-known", jwksRoutes);
  mountArea(app, "/.well-known", issuerDirectoryRoutes);
  mountArea(app, "/api/attestations", attestationRoutes);
  mountArea(app, "/.well-known", issuerMetadataRoutes);
  // The OpenID4VCI endpoints, where the issuer metadata names them (src/domain/attestations/metadata.ts).
  mountArea(app, "/", issuanceRoutes);
  // The apps' pages (src/apps/): the end user's, the merchant console, the account mail links' pages.
  app.route("/", verifyAppRoutes);
  app.route("/", consoleAppRoutes);
  app.route("/", accountAppRoutes);
  // The development pages, in development builds only (DEVELOPMENT_PAGES, wrangler.toml [define]); an
  // environment whose [define] forgets the flag gets none (the flag written out in full, so esbuild folds it).
  if (typeof DEVELOPMENT_PAGES !== "undefined" && DEVELOPMENT_PAGES) mountDevelopmentPages(app);
  // GET /api/openapi.json and GET /docs are static files (public/api/openapi.json, public/docs.html),
  // generated from this app by `npm run openapi`: the document builder is not part of the Worker.

  app.notFound((c) => errorResponse(c, notFound("Route")));
  app.onError(handleError);
  return app;
}
