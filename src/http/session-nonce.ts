// The end user's session nonce (docs/api-contract.md §Answering): in the X-Session-Nonce header, which the apps use, or in
// the 1.0.0 places (`?nonce=` on the request read, `nonce` in the complete body), which stay valid. The
// header keeps the nonce out of URLs, and so out of the platform's and any proxy's access logs.
import * as z from "../lib/lazy-zod";
import { validationFailed } from "../errors";
import { requestHeaders } from "./validate";

const Nonce = z.string().check(z.minLength(1), z.maxLength(128));

export const SessionNonceHeader = z.object({
  "x-session-nonce": z
    .optional(Nonce)
    .check(z.describe(OPENAPI_METADATA ? "The session's nonce; preferred over the query or body form, which stay valid." : "")),
});

export const sessionNonceHeader = requestHeaders(SessionNonceHeader);

/** The nonce from the header or the 1.0.0 place; both given must agree, and one is required. */
export function sessionNonce(fromHeader: string | undefined, fromRequest: string | undefined, where: "nonce"): string {
  if (fromHeader !== undefined && fromRequest !== undefined && fromHeader !== fromRequest) {
    throw validationFailed([{ path: where, message: "The nonce differs from the X-Session-Nonce header; send one of them." }]);
  }
  const nonce = fromHeader ?? fromRequest;
  if (nonce === undefined)
    throw validationFailed([{ path: where, message: "Send the session's nonce in the X-Session-Nonce header (or as nonce)." }]);
  return nonce;
}
