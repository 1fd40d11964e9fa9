// Route metadata for the OpenAPI document. Validators and auth middleware carry the zod schemas and
// security they enforce, so the document is generated from exactly what validates requests.
import type { MiddlewareHandler } from "hono";
import type { ZodType } from "zod";
import type { CodeOf, ErrorStatus } from "../errors";

export const OPENAPI = Symbol.for("age-verification.openapi");

export type Security = "bearer" | "apiKey" | "webhookSignature";

export type ResponseDoc = {
  description: string;
  /** Schema of `data` in the success envelope; omitted for a body without data. */
  data?: ZodType;
  /** A body that is not the JSON envelope (for example text/csv). */
  content?: { type: string; schema: Record<string, unknown> };
};

/** An error response: its codes come from the catalogue, and only codes of that status compile. */
export type ErrorResponseDoc<S extends ErrorStatus> = { description: string; codes?: readonly CodeOf<S>[] };

export type SuccessStatus = 200 | 201 | 202 | 204;

/** Responses by status. Route files declare shared entries with `satisfies Responses`. */
export type Responses = { [S in SuccessStatus]?: ResponseDoc } & { [S in ErrorStatus]?: ErrorResponseDoc<S> };

export type OperationMeta = {
  tag?: string;
  summary?: string;
  description?: string;
  security?: Security;
  body?: ZodType;
  query?: ZodType;
  /** Request headers the route reads (beyond its credential), documented as header parameters. */
  headers?: { name: string; description: string; schema: Record<string, unknown> }[];
  responses?: Responses;
  /** Development-only routes are documented as such. */
  devOnly?: boolean;
};

export function withMeta<T extends MiddlewareHandler<any, any, any>>(handler: T, meta: OperationMeta): T {
  (handler as unknown as Record<symbol, OperationMeta>)[OPENAPI] = meta;
  return handler;
}

export const readMeta = (handler: unknown): OperationMeta | undefined =>
  (handler as Record<symbol, OperationMeta> | undefined)?.[OPENAPI];

/** Documents a route: a pass-through middleware that only carries metadata. */
export const describe = (meta: OperationMeta): MiddlewareHandler =>
  withMeta(async (_c, next) => {
    await next();
  }, meta);
