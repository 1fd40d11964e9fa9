// One error class and one error shape (CONTRACT §1): routes throw ApiError, onError writes the envelope.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./env";
import { log } from "./http/logger";

export type FieldError = { path: string; message: string };

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = "Resource") => new ApiError("NOT_FOUND", 404, `${what} not found.`);
export const unauthorized = () => new ApiError("UNAUTHORIZED", 401, "Missing, invalid or expired credential.");
export const validationFailed = (errors: FieldError[]) =>
  new ApiError("VALIDATION_FAILED", 422, "The request did not pass validation.", errors);

export function errorResponse(c: Context<AppEnv>, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json({ success: false, error: error.code, message: error.message, errors: error.errors }, error.status);
}

const HTTP_EXCEPTION_CODES: Record<number, string> = {
  400: "MALFORMED_JSON",
  401: "UNAUTHORIZED",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

export function handleError(err: Error, c: Context<AppEnv>) {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx (a parse failure raised inside its validator), under the contract's codes.
    const code = HTTP_EXCEPTION_CODES[err.status] ?? "BAD_REQUEST";
    return errorResponse(c, new ApiError(code, err.status as ContentfulStatusCode, err.message));
  }
  const requestId = c.get("requestId") ?? "unknown";
  // Names only: a failed query's message quotes its SQL parameters (emails, hashes, dates of birth), so
  // neither the body nor the log carries a message. The request id joins the two.
  const cause = (err as { cause?: unknown }).cause;
  log("error", "unhandled error", {
    requestId,
    route: c.req.routePath,
    error: err.name,
    cause: cause instanceof Error ? cause.name : undefined,
  });
  return errorResponse(
    c,
    new ApiError("INTERNAL_ERROR", 500, `Something went wrong on our side. Reference: ${requestId}`),
  );
}
