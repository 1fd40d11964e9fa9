// Content-Security-Policy of the apps' pages. Everything they load comes from this Worker; the only
// exception is the Onfido capture SDK, allowed on the verification page alone and only when the
// provider is Onfido, so a sandbox or console page can never load third-party code.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/app-env";

const BASE: Record<string, string[]> = {
  "default-src": ["'none'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  "connect-src": ["'self'"],
  "img-src": ["'self'", "data:"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
  "base-uri": ["'none'"],
};

/**
 * The Onfido Web SDK, pinned to an exact release: the floating /v14 URL would run whatever Onfido
 * publishes next in the origin that holds the user's token. No integrity attribute: the SDK loads more
 * code from Onfido's hosts at run time, which a hash of the first file would not cover; the pin and the
 * narrow CSP below are the control. The page injects it only when the Onfido step starts. Update
 * deliberately: read the release notes, then change this version (it is the npm onfido-sdk-ui release).
 */
export const ONFIDO_SDK_VERSION = "14.80.0";
export const ONFIDO_SDK_URL = `https://sdk.onfido.com/v${ONFIDO_SDK_VERSION}`;

// Onfido's published minimum for the Web SDK (documentation.onfido.com/sdk/sdk-csp-guide): scripts
// from sdk. and assets.onfido.com, styles, fonts and the iframe from sdk.onfido.com, API calls to its
// regional API hosts (the EU one added: it is where ONFIDO_API_URL points in Europe; Onfido's plain-http
// entry is left out, an https page could not use it anyway). Where Onfido's guide relies on default-src
// (images, media, workers), its two hosts are listed, plus blob: for the captured frames the SDK
// previews. No 'unsafe-inline': Onfido asks for it only when the SDK is started from inline code, and
// here it is started from /assets/verify.js.
const ONFIDO_SDK = "https://sdk.onfido.com";
const ONFIDO_ASSETS = "https://assets.onfido.com";
const ONFIDO: Record<string, string[]> = {
  "script-src": [ONFIDO_SDK, ONFIDO_ASSETS],
  "style-src": [ONFIDO_SDK],
  "font-src": [ONFIDO_SDK],
  "connect-src": ["https://api.onfido.com", "https://api.eu.onfido.com", "https://api.us.onfido.com", "https://api.ca.onfido.com"],
  "img-src": ["blob:", ONFIDO_SDK, ONFIDO_ASSETS],
  "media-src": ["blob:", ONFIDO_SDK, ONFIDO_ASSETS],
  "worker-src": ["'self'", "blob:", ONFIDO_SDK, ONFIDO_ASSETS],
  "frame-src": [ONFIDO_SDK],
};

export function contentSecurityPolicy(options: { onfido?: boolean } = {}): string {
  const directives: Record<string, string[]> = Object.fromEntries(Object.entries(BASE).map(([k, v]) => [k, [...v]]));
  if (options.onfido) {
    for (const [name, sources] of Object.entries(ONFIDO)) directives[name] = [...(directives[name] ?? []), ...sources];
  }
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/** Strict CSP on every app response; a page that needs more sets its own header before this runs. */
export const strictPolicy = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!c.res.headers.has("Content-Security-Policy")) c.res.headers.set("Content-Security-Policy", contentSecurityPolicy());
});
