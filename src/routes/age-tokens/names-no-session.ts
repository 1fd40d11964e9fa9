// Issuance names no session (docs/double-blind.md "Issuance names no session"): the service must never
// hold, in one request, an account (the Bearer token issuance needs) and something that names the
// session the tokens will approve. A client that would send one (an X-Session-Nonce header, a query
// string: the route takes none, a Referer with a path or a query: the page it came from) is refused
// before the sign-in is checked, so nothing of the account is read, counted or signed for it. The body's
// own fields are held to the route's (its strict validator). The pages never send a Referer
// (Referrer-Policy: no-referrer, and referrerPolicy on the request itself): this catches any other client.
import { createMiddleware } from "hono/factory";
import { validationFailed, type FieldError } from "../../errors";
import type { AppEnv } from "../../http/app-env";

/** What of the request could name a session, one error per place. */
function sessionNamingParts(url: string, header: (name: string) => string | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (header("x-session-nonce") !== undefined)
    errors.push({ path: "x-session-nonce", message: "Token issuance names no session: send no X-Session-Nonce." });
  if (new URL(url).search !== "") errors.push({ path: "query", message: "Token issuance takes no query string." });
  const referer = header("referer");
  if (referer !== undefined && !isBareOrigin(referer))
    errors.push({ path: "referer", message: "Token issuance names no page: send no Referer (referrerPolicy: no-referrer)." });
  return errors;
}

/** A Referer that names an origin and nothing more; anything unreadable counts as naming more. */
function isBareOrigin(referer: string): boolean {
  try {
    const url = new URL(referer);
    return url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

export const namesNoSession = createMiddleware<AppEnv>(async (c, next) => {
  const errors = sessionNamingParts(c.req.url, (name) => c.req.header(name));
  if (errors.length > 0) throw validationFailed(errors);
  await next();
});
