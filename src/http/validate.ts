// zValidator with the contract's 422 envelope: one { path, message } item per problem.
import { zValidator } from "@hono/zod-validator";
import { every } from "hono/combine";
import { createMiddleware } from "hono/factory";
import type { MiddlewareHandler } from "hono/types";
import type { $ZodError, $ZodType } from "zod/v4/core";
import { fieldErrors, validationFailed } from "../errors";
import { withMeta } from "./openapi-meta";

const hook = (result: { success: boolean; error?: unknown }) => {
  if (!result.success) throw validationFailed(fieldErrors(result.error as $ZodError));
};

/**
 * A zero-byte body is no body (as the body guard already treats it), even under a JSON content type that
 * many clients send by default: the validator then sees no fields (422, or the defaults) instead of failing
 * to parse "" with a 400 outside the contract's codes.
 */
const emptyBodyIsNoBody = createMiddleware(async (c, next) => {
  if (c.req.raw.body !== null && (await c.req.arrayBuffer()).byteLength === 0) {
    const headers = new Headers(c.req.raw.headers);
    headers.delete("content-type");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
  }
  await next();
});

export const jsonBody = <S extends $ZodType>(schema: S) => {
  const validate = zValidator("json", schema, hook);
  // `every` keeps one middleware per route (the OpenAPI metadata rides on it); the cast keeps the validator's input types.
  return withMeta(every(emptyBodyIsNoBody, validate) as unknown as typeof validate, { body: schema });
};

export const queryParams = <S extends $ZodType>(schema: S) => withMeta(zValidator("query", schema, hook), { query: schema });

/** A middleware made on its first request: zValidator reads a header schema's shape when it is made. */
function onFirstUse<M extends MiddlewareHandler>(make: () => M): M {
  let made: M | undefined;
  return ((c, next) => (made ??= make())(c, next)) as M;
}

/**
 * Request headers, validated like the rest of the input; the schema's keys are lower-case header names.
 * Made on first use so that the schema (src/lib/lazy-zod.ts) is not built when the Worker starts.
 */
export const requestHeaders = <S extends $ZodType>(schema: S) =>
  withMeta(
    onFirstUse(() => zValidator("header", schema, hook)),
    { headers: schema },
  );
