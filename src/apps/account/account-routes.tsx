// The account app: the person's own account page (/account, account-page.tsx) and the pages account mail
// links open (/account/verify-email, /account/reset-password, /account/confirm-email-change), for
// merchants' and end users' accounts alike, so an app of their own rather than a part of the console or
// /verify. HTML shells whose scripts (account-page.browser.js, account.browser.js) call the public JSON API.
import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { strictPolicy } from "../../web/csp";
import { chooseLocale } from "../../web/i18n/catalogue";
import { browserLanguage, noStorePage, pageLanguage } from "../../web/page-response";
import { AccountLinkPage, type AccountLinkKind } from "./account-link-page";
import { AccountPage } from "./account-page";

const ACCOUNT_LINKS: AccountLinkKind[] = ["verify-email", "reset-password", "confirm-email-change"];

export const accountAppRoutes = new Hono<AppEnv>();

// The switcher's choice (`?lang=`, which /verify's link to this page carries), else the browser's language.
accountAppRoutes.get("/account", strictPolicy, noStorePage, async (c) => {
  const locale = chooseLocale({ chosen: c.req.query("lang"), acceptLanguage: c.req.header("accept-language") });
  return c.html(<AccountPage language={await pageLanguage(c, locale)} development={!c.var.ctx.settings.production} />);
});

for (const kind of ACCOUNT_LINKS) {
  accountAppRoutes.get(`/account/${kind}`, strictPolicy, noStorePage, async (c) =>
    c.html(<AccountLinkPage kind={kind} language={await browserLanguage(c)} />),
  );
}
