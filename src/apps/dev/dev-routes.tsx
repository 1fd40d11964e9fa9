// The development pages: /dev/outbox, the outbox with clickable links (404 in production, as
// GET /api/dev/outbox is). An app of its own: it belongs to none of the end user's or merchant's pages.
// Mounted only where the build sets DEVELOPMENT_PAGES (wrangler.toml [define]): the production and
// staging scripts leave this module and its page out. A function, not a module-level Hono app, so that
// esbuild can drop the module when nothing calls it (docs/performance.md "Bundle").
import type { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { EmailField } from "../../domain/accounts";
import { developmentOnly } from "../../http/guards";
import { readDevOutbox } from "../../mail/read-dev-outbox";
import { strictPolicy } from "../../web/csp";
import { noStorePage } from "../../web/page-response";
import { OutboxPage } from "./outbox-page";

export function mountDevelopmentPages(app: Hono<AppEnv>): void {
  // Still guarded at run time: a development build deployed with production settings shows no outbox.
  app.get("/dev/outbox", strictPolicy, noStorePage, developmentOnly, async (c) => {
    const asked = EmailField.safeParse(c.req.query("to") ?? "");
    const to = asked.success ? asked.data : null;
    return c.html(<OutboxPage to={to} mails={to ? await readDevOutbox(c.var.ctx, to) : []} />);
  });
}
