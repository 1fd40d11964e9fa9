// The 404 and 410 many of this area's operations document alike: a session that is not found (an unknown
// id, another account's session, a wrong nonce) and a link its merchant withdrew. OpenAPI prose only,
// read behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker.
import type { Responses } from "../../http/openapi-meta";

export const unknownSession = {
  404: { description: "Unknown session, another account's session, or a wrong nonce", codes: ["NOT_FOUND"] },
} satisfies Responses;
/** The routes the link's holder calls with its nonce: a link its merchant withdrew says so (docs/end-user-apps.md). */
export const withdrawnLink = {
  410: {
    description:
      "The link's request was withdrawn by the website that made it and can no longer be answered (only for the link's own nonce; nothing else is said)",
    codes: ["SESSION_WITHDRAWN"],
  },
} satisfies Responses;
/** Both, for a route the link's holder calls with its nonce; a function, since an object spread at module level would stay in the Worker. */
export const linkSession = () => ({ ...unknownSession, ...withdrawnLink }) satisfies Responses;
