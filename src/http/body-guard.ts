// Request bodies (docs/api-contract.md §Conventions): over 64 KiB is 413, a body that is not JSON is 415, JSON that does not
// parse is 400. Runs before authentication and routing so that every route answers alike.
import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../errors";
import { isJsonMediaType, parseJsonBytes } from "../lib/json-body";

export const MAX_BODY_BYTES = 64 * 1024;

const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError("PAYLOAD_TOO_LARGE");
  },
});

export const requireJsonBody = createMiddleware(async (c, next) => {
  if (c.req.raw.body === null) return next();
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength === 0) return next();
  if (!isJsonMediaType(c.req.header("content-type"))) throw new ApiError("UNSUPPORTED_MEDIA_TYPE");
  if (!parseJsonBytes(bytes)) throw new ApiError("MALFORMED_JSON");
  await next();
});

/**
 * The JSON rule for every API route but the provider webhooks, which verify a signature over the raw body
 * before anything parses it. A prefix test rather than `except()` from hono/combine, which composes a new
 * middleware chain for every request (docs/performance.md).
 */
const requireJsonBodyOutsideWebhooks = createMiddleware(async (c, next) => {
  const path = c.req.path;
  if (path === "/api/webhooks" || path.startsWith("/api/webhooks/")) return next();
  return requireJsonBody(c, next);
});

/**
 * The size limit, then the JSON rule, as one middleware; a request without a body (every GET) passes
 * at the cost of one property read.
 */
export const guardBody = createMiddleware(async (c, next) => {
  if (c.req.raw.body === null) return next();
  return limitBody(c, async () => {
    await requireJsonBodyOutsideWebhooks(c, next);
  });
});
