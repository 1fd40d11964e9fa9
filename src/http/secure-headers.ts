// The security headers of every answer: hono/secure-headers' defaults (Cross-Origin-Resource-Policy
// same-origin), written out as a fixed list. The middleware's option handling (CSP callbacks, nonces,
// permissions policies), which this app does not use, cost bundle and per-request work for nothing
// (docs/performance.md); the pages add their own Content-Security-Policy (src/web/csp.ts).
const SECURE_HEADERS: readonly (readonly [string, string])[] = [
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

/** Sets every security header (replacing a value a handler set) and removes X-Powered-By. */
export function setSecureHeaders(headers: Headers): void {
  for (const [name, value] of SECURE_HEADERS) headers.set(name, value);
  headers.delete("X-Powered-By");
}
