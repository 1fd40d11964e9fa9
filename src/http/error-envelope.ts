// Writes the error envelope (docs/api-contract.md §Conventions): app.onError and app.notFound end here, whatever threw.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, type ErrorCode } from "../errors";
import { log } from "../lib/log";
import type { AppEnv } from "./app-env";

export function errorResponse(c: Context<AppEnv>, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json({ success: false, error: error.code, message: error.message, errors: error.errors }, error.status);
}

const HTTP_EXCEPTION_CODES: Record<number, ErrorCode> = {
  400: "MALFORMED_JSON",
  401: "UNAUTHORIZED",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

export function handleError(err: Error, c: Context<AppEnv>) {
  if (err instanceof ApiError) {
    if (err.log) log("error", err.log.message, { requestId: c.get("requestId"), route: c.req.routePath, ...err.log.fields });
    return errorResponse(c, err);
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx (a parse failure raised inside its validator), under the contract's codes.
    return errorResponse(c, new ApiError(HTTP_EXCEPTION_CODES[err.status] ?? "BAD_REQUEST", { message: err.message }));
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
  return errorResponse(c, new ApiError("INTERNAL_ERROR", { message: `Something went wrong on our side. Reference: ${requestId}` }));
}
