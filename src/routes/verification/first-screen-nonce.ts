// The nonce of the routes that need no account (preview, decline): X-Session-Nonce, or `?nonce=` as on
// the 1.0.0 routes. A missing one is answered like a wrong one (404), so nothing tells an unknown
// session from a wrong nonce.
import { notFound } from "../../errors";

export function firstScreenNonce(header: string | undefined, query: string | undefined): string {
  const nonce = header ?? query ?? "";
  if (nonce.length === 0 || nonce.length > 128) throw notFound("Session");
  return nonce;
}
