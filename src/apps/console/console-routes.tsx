// The merchant console: GET /console, an HTML shell (console-page.tsx) in English; everything it shows
// comes from the public JSON API, called by console.browser.js with the account's Bearer token.
import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { strictPolicy } from "../../web/csp";
import { noStorePage } from "../../web/page-response";
import { ConsolePage } from "./console-page";

export const consoleAppRoutes = new Hono<AppEnv>();

consoleAppRoutes.get("/console", strictPolicy, noStorePage, (c) => c.html(<ConsolePage development={!c.var.ctx.settings.production} />));
