// The service's own apps, served by the same Worker outside /api: the end user's verification page,
// the merchant console, and the pages behind account mail links. They are HTML shells; everything
// they show comes from the public JSON API, called by their scripts with the account's Bearer token.
import { zValidator } from "@hono/zod-validator";
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import * as z from "zod";
import type { AppEnv } from "../http/app-env";
import { AccountLinkPage, type AccountLinkKind } from "../web/account-link-page";
import { ConsolePage } from "../web/console-page";
import { contentSecurityPolicy, strictPolicy } from "../web/csp";
import { InvalidLinkPage } from "../web/invalid-link-page";
import { VerifyPage } from "../web/verify-page";
import { idShape } from "../lib/ids";
import { previewSession } from "../domain/verification";
import { chooseLocale } from "../web/i18n/catalogue";
import { catalogueFor } from "../web/i18n/load-catalogue";
import type { Locale } from "../db/schema";

// The shape of a link built by a merchant: anything else is a broken link, shown as a page, not JSON.
const VerifyLink = z.object({
  session_id: z.string().regex(idShape("ses")),
  nonce: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
});

const ACCOUNT_LINKS: AccountLinkKind[] = ["verify-email", "reset-password", "confirm-email-change"];

// Page middleware is attached per route, not with use(): this sub-app is mounted at "/", and a
// use() here would also wrap every /api response.
const page = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  // Pages carry no personal data, but they are app shells: never cache one next to a newer script.
  c.res.headers.set("Cache-Control", "no-store");
});

export const pageRoutes = new Hono<AppEnv>();

/**
 * The page's language and its catalogue (read from the static assets once per isolate; English if that
 * fails), said in the headers, which vary by Accept-Language.
 */
async function pageLanguage(c: Pick<Context<AppEnv>, "header" | "env">, wanted: Locale) {
  const language = await catalogueFor(c.env, wanted);
  c.header("Content-Language", language.locale);
  c.header("Vary", "Accept-Language");
  return language;
}

/** The language of a page that knows no session: the browser's. */
const browserLanguage = (c: Context<AppEnv>) => pageLanguage(c, chooseLocale({ acceptLanguage: c.req.header("accept-language") }));

pageRoutes.get(
  "/verify",
  strictPolicy,
  page,
  // The hook's context is this app's, typed with Hono's default Env by zValidator.
  zValidator("query", VerifyLink, async (result, c) => {
    if (!result.success) return c.html(<InvalidLinkPage language={await browserLanguage(c as Context<AppEnv>)} />, 404);
  }),
  async (c) => {
    const provider = c.env.PROVIDER === "onfido" ? "onfido" : "sandbox";
    if (provider === "onfido") c.header("Content-Security-Policy", contentSecurityPolicy({ onfido: true }));
    const link = c.req.valid("query");
    // The merchant's `locale`, read with the link's own nonce; a wrong link still gets a page (which says so).
    const session = await previewSession(c.var.ctx, link.session_id, link.nonce).catch(() => null);
    const locale = chooseLocale({ chosen: c.req.query("lang"), session: session?.locale, acceptLanguage: c.req.header("accept-language") });
    const language = await pageLanguage(c, locale);
    return c.html(<VerifyPage provider={provider} language={language} link={{ session_id: link.session_id, nonce: link.nonce }} />);
  },
);

pageRoutes.get("/console", strictPolicy, page, (c) => c.html(<ConsolePage development={c.env.ENVIRONMENT !== "production"} />));

for (const kind of ACCOUNT_LINKS) {
  pageRoutes.get(`/account/${kind}`, strictPolicy, page, async (c) => c.html(<AccountLinkPage kind={kind} language={await browserLanguage(c)} />));
}
