// Request bodies (CONTRACT §1): over 64 KiB is 413, a body that is not JSON is 415, JSON that does not
// parse is 400. Runs before authentication and routing so that every route answers alike.
import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../errors";

export const MAX_BODY_BYTES = 64 * 1024;

export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError("PAYLOAD_TOO_LARGE");
  },
});

// The same media types Hono's json validator reads (one optional "+json" suffix): a type the guard let
// through but the validator ignored would be read as an empty body.
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i;

export const requireJsonBody = createMiddleware(async (c, next) => {
  if (c.req.raw.body === null) return next();
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength === 0) return next();
  if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE");
  }
  try {
    JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw new ApiError("MALFORMED_JSON");
  }
  await next();
});
