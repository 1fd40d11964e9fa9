// The pages account mail links open (/account/verify-email, /account/reset-password,
// /account/confirm-email-change), for merchants' and end users' accounts alike, so an app of their own
// rather than a part of the console or /verify: an HTML shell (account-link-page.tsx) in the browser's
// language, whose script (account.browser.js) sends the link's token to the public JSON API.
import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { strictPolicy } from "../../web/csp";
import { browserLanguage, noStorePage } from "../../web/page-response";
import { AccountLinkPage, type AccountLinkKind } from "./account-link-page";

const ACCOUNT_LINKS: AccountLinkKind[] = ["verify-email", "reset-password", "confirm-email-change"];

export const accountAppRoutes = new Hono<AppEnv>();

for (const kind of ACCOUNT_LINKS) {
  accountAppRoutes.get(`/account/${kind}`, strictPolicy, noStorePage, async (c) => c.html(<AccountLinkPage kind={kind} language={await browserLanguage(c)} />));
}
