// What every app page's answer carries besides its CSP (csp.ts): never cached, and its language said
// in the headers. Shared by the apps' route files (src/apps/*/…-routes.tsx), each a sub-app mounted at
// "/": their middleware is attached per route, not with use(), which would also wrap every /api answer.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/app-env";
import type { Locale } from "../db/schema";
import { chooseLocale } from "./i18n/catalogue";
import { catalogueFor } from "./i18n/load-catalogue";

/** Pages carry no personal data, but they are app shells: never cache one next to a newer script. */
export const noStorePage = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
});

/**
 * The page's language and its catalogue (read from the static assets once per isolate; English if that
 * fails), said in the headers, which vary by Accept-Language.
 */
export async function pageLanguage(c: Pick<Context<AppEnv>, "header" | "env">, wanted: Locale) {
  const language = await catalogueFor(c.env, wanted);
  c.header("Content-Language", language.locale);
  c.header("Vary", "Accept-Language");
  return language;
}

/** The language of a page that knows no session: the browser's. */
export const browserLanguage = (c: Context<AppEnv>) => pageLanguage(c, chooseLocale({ acceptLanguage: c.req.header("accept-language") }));
