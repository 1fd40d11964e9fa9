// The security headers of every answer, in two sets chosen by what the answer is.
//
// A page (text/html) gets hono/secure-headers' defaults with Cross-Origin-Resource-Policy same-origin,
// written out as a fixed list (the middleware's option handling, unused here, cost bundle and per-request
// work: docs/performance.md); the pages add their own Content-Security-Policy (src/web/csp.ts).
//
// Everything else (the API's JSON, the CSV export, a redirect) is not a document: a browser never renders
// it as a page with scripts, frames or links, so the document-only headers (opener and agent-cluster
// policies, the referrer policy, DNS prefetch, the IE and Flash headers, the XSS-auditor switch) change
// nothing there. It gets the OWASP REST Security Cheat Sheet's set instead: no sniffing, HSTS, the resource
// policy, and a Content-Security-Policy that lets the answer, if opened as a document anyway, load and run
// nothing and be framed by no one (stricter than X-Frame-Options SAMEORIGIN, which it replaces). Eight
// headers dropped and one added: every merchant answer is 7 headers shorter, which docs/performance.md
// measures (each header is copied at every hop of an answer's way out). JSON's Cache-Control is no-store.ts's.
const DOCUMENT_HEADERS: readonly (readonly [string, string])[] = [
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

/** The policy of an answer that is not a page, unless its route set one. */
const NON_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

const NON_DOCUMENT_HEADERS: readonly (readonly [string, string])[] = [
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
];

/** Whether an answer of this Content-Type is a page (text/html), as opposed to data. */
const isDocument = (contentType: string | null) => contentType !== null && /^\s*text\/html\b/i.test(contentType);

/**
 * Sets the security headers of the answer's kind (replacing a value a handler set; a non-page keeps a
 * Content-Security-Policy its route chose) and removes X-Powered-By. `contentType` is the answer's own.
 */
export function setSecureHeaders(headers: Headers, contentType: string | null): void {
  if (isDocument(contentType)) {
    for (const [name, value] of DOCUMENT_HEADERS) headers.set(name, value);
  } else {
    for (const [name, value] of NON_DOCUMENT_HEADERS) headers.set(name, value);
    if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", NON_DOCUMENT_POLICY);
  }
  headers.delete("X-Powered-By");
}
