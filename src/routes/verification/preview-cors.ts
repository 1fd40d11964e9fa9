// CORS for GET /api/age-verification/session/{id}/preview and that route alone: the merchant's drop-in
// (docs/drop-in.md) reads a session's status from the merchant's own page, another origin, with the nonce
// in X-Session-Nonce. Any origin may ask (the 256-bit nonce is the credential, as on the page), only GET,
// only that header, and never with credentials: no cookie or Authorization is sent or honoured, so a
// page can read nothing here it could not already read with the link it holds. The preflight is cached
// for 10 minutes, so polling costs one preflight per session link, not one per poll.
import { cors } from "hono/cors";

export const PREVIEW_PATH = "/session/:id/preview";

export const previewCors = cors({
  origin: "*",
  allowMethods: ["GET"],
  allowHeaders: ["X-Session-Nonce"],
  credentials: false,
  maxAge: 600,
});
