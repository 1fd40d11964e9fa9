// The merchant console: GET /console, an HTML shell in English; everything it shows comes from the public
// JSON API, called by console.browser.js with the account's Bearer token. The shell varies only by the
// development flag, so its two variants are static files, rendered from console-page.tsx by
// `npm run openapi` (test/node/console-static.test.ts) into public/console/, and read here through the
// ASSETS binding: the Worker's script carries none of the page's markup (docs/performance.md). The
// answer keeps the Worker's own page headers (CSP, no-store, the security headers).
import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { strictPolicy } from "../../web/csp";
import { noStorePage } from "../../web/page-response";

export const consoleAppRoutes = new Hono<AppEnv>();

consoleAppRoutes.get("/console", strictPolicy, noStorePage, async (c) => {
  const variant = c.var.ctx.settings.production ? "production" : "development";
  const file = await c.env.ASSETS.fetch(new URL(`/console/${variant}`, c.req.url));
  if (!file.ok) throw new Error(`console page asset answered ${file.status}`);
  return c.html(await file.text());
});
