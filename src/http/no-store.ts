// Every JSON answer may carry something for one reader only (API keys and signing secrets on creation,
// account data, session answers): no browser or intermediary cache may keep a copy. The one exception is
// an answer its route declares public for everyone (the receipts' key set, /.well-known/jwks.json).

/** Applied by the request frame (src/http/request-frame.ts) to every answer; `contentType` is the answer's own. */
export function noStoreJson(headers: Headers, contentType: string | null): void {
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType ?? "")) return;
  if (/^public\b/.test(headers.get("cache-control") ?? "")) return;
  headers.set("Cache-Control", "no-store");
}
