// Content-Security-Policy of the apps' pages. Everything they load comes from this Worker; the only
// exception is the Onfido capture SDK, allowed on the verification page alone and only when the
// provider is Onfido, so a sandbox or console page can never load third-party code.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

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

export const ONFIDO_SDK_URL = "https://sdk.onfido.com/v14";

// What the Onfido Web SDK needs: its script and styles, its API and upload endpoints (HTTPS and
// WebSocket), camera frames as blob: URLs, and its cross-device iframe.
const ONFIDO: Record<string, string[]> = {
  "script-src": ["https://sdk.onfido.com"],
  "style-src": ["https://sdk.onfido.com", "'unsafe-inline'"],
  "connect-src": ["https://*.onfido.com", "wss://*.onfido.com"],
  "img-src": ["blob:", "https://*.onfido.com"],
  "media-src": ["blob:"],
  "worker-src": ["blob:"],
  "frame-src": ["https://*.onfido.com"],
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
