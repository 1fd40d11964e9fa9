// Route metadata for the OpenAPI document. Validators and auth middleware carry the zod schemas and
// security they enforce, so the document is generated from exactly what validates requests.
import type { MiddlewareHandler } from "hono";
import type { $ZodType } from "zod/v4/core";
import type { CodeOf, ErrorStatus } from "../errors";
import type { LimitName } from "./limits";
// OPENAPI_METADATA, the build flag that keeps or drops the descriptions below.
import type {} from "../lib/build-flags";

export const OPENAPI = Symbol.for("age-verification.openapi");

export type Security = "bearer" | "apiKey" | "webhookSignature";

export type ResponseDoc = {
  description: string;
  /** Schema of `data` in the success envelope; omitted for a body without data. */
  data?: $ZodType;
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
  body?: $ZodType;
  query?: $ZodType;
  /** Request headers the route reads (besides the credential headers of its security scheme). */
  headers?: $ZodType;
  responses?: Responses;
  /** Development-only routes are documented as such. */
  devOnly?: boolean;
  /** The catalogue's limits the route counts (src/http/limits.ts): their 429 is made from them, not written by hand. */
  limits?: readonly LimitName[];
};

/** A route's prose, in its own file: everything but the 429, which comes from the limits it declares. */
export type OperationDoc = Omit<OperationMeta, "responses" | "limits"> & { responses?: Omit<Responses, 429> };

// biome-ignore lint/suspicious/noExplicitAny: any environment, path and input: the metadata is the same whatever the handler validates
export function withMeta<T extends MiddlewareHandler<any, any, any>>(handler: T, meta: OperationMeta): T {
  (handler as unknown as Record<symbol, OperationMeta>)[OPENAPI] = meta;
  return handler;
}

export const readMeta = (handler: unknown): OperationMeta | undefined => (handler as Record<symbol, OperationMeta> | undefined)?.[OPENAPI];

/** What describe() gives where there is no metadata (the Worker): mountArea leaves it out of the chain. */
export const passThrough: MiddlewareHandler = async (_c, next) => {
  await next();
};

/** Documents a route: a pass-through middleware that only carries metadata (none in the Worker's bundle). */
export const describe = (meta: OperationMeta | false): MiddlewareHandler =>
  meta
    ? withMeta(async (_c, next) => {
        await next();
      }, meta)
    : passThrough;
