// The end user's app: GET /verify, the page a merchant's verification_url opens. An HTML shell
// (verify-page.tsx); everything it shows comes from the public JSON API, called by verify.browser.js
// and passkeys.browser.js. A link of the wrong shape gets a page that says so (invalid-link-page.tsx).
import { zValidator } from "@hono/zod-validator";
import { Hono, type Context } from "hono";
import * as z from "../../lib/lazy-zod";
import type { AppEnv } from "../../http/app-env";
import { previewSession } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { clientAddress, WINDOW_SECONDS, withinLimit } from "../../http/rate-limit";
import { idShape } from "../../lib/ids";
import { contentSecurityPolicy, strictPolicy } from "../../web/csp";
import { chooseLocale } from "../../web/i18n/catalogue";
import { browserLanguage, noStorePage, pageLanguage } from "../../web/page-response";
import { InvalidLinkPage } from "./invalid-link-page";
import { VerifyPage } from "./verify-page";

// The shape of a link built by a merchant: anything else is a broken link, shown as a page, not JSON.
const VerifyLink = z.object({
  session_id: z.string().check(z.regex(idShape("ses"))),
  nonce: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/)),
});

export const verifyAppRoutes = new Hono<AppEnv>();

verifyAppRoutes.get(
  "/verify",
  strictPolicy,
  noStorePage,
  // The hook's context is this app's, typed with Hono's default Env by zValidator.
  zValidator("query", VerifyLink, async (result, c) => {
    if (!result.success) return c.html(<InvalidLinkPage language={await browserLanguage(c as Context<AppEnv>)} />, 404);
  }),
  async (c) => {
    const provider = c.var.ctx.settings.provider === "onfido" ? "onfido" : "sandbox";
    if (provider === "onfido") c.header("Content-Security-Policy", contentSecurityPolicy({ onfido: true }));
    const link = c.req.valid("query");
    // The page's own read of the session counts on the session link's limit, as its API calls do: past it,
    // no session is read (no Durable Object reached) and the page comes as a 429 that its script retries.
    const admitted = await withinLimit(c, LIMITS.sessionLinkPerAddress, clientAddress(c));
    if (!admitted) c.header("Retry-After", String(WINDOW_SECONDS));
    // The merchant's `locale`, read with the link's own nonce; a wrong link still gets a page (which says so).
    const session = admitted ? await previewSession(c.var.ctx, link.session_id, link.nonce).catch(() => null) : null;
    const locale = chooseLocale({ chosen: c.req.query("lang"), session: session?.locale, acceptLanguage: c.req.header("accept-language") });
    const language = await pageLanguage(c, locale);
    return c.html(
      <VerifyPage
        provider={provider}
        language={language}
        link={{ session_id: link.session_id, nonce: link.nonce }}
        development={!c.var.ctx.settings.production}
      />,
      admitted ? 200 : 429,
    );
  },
);
