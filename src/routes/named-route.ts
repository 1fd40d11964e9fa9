// A route as a named operation, one file each under src/routes/<area>/: its spec (method, path, the limits
// it counts) and its handlers (the OpenAPI metadata, auth, validators, then the named handler). An area's
// index.ts lists its operations in order (areaOf), app.ts mounts each area (mountArea), so a newcomer
// reaches any route's code from its file name.
import type { Hono } from "hono";
import type { Factory } from "hono/factory";
import type { H, MiddlewareHandler } from "hono/types";
import { mergePath } from "hono/utils/url";
import type { AppEnv } from "../http/app-env";
import { aboutLimit, type Limit } from "../http/limits";
import { passThrough, type OperationDoc, type OperationMeta } from "../http/openapi-meta";

/** The limits a route counts, by the name its handler uses; each is a limit of the catalogue (src/http/limits.ts). */
export type RouteLimits = Readonly<Record<string, Limit>>;

/** What a route is: its method and path (in its area), and the limits it counts. */
export type RouteSpec = { method: "get" | "post" | "put" | "patch" | "delete"; path: string; limits: RouteLimits };

/** hono/factory's createHandlers, without the factory object the Worker would otherwise carry. */
const createHandlers = (...handlers: unknown[]) => handlers;

/**
 * Builds a route's handlers typed as a Hono chain types them: the validators type `c.req.valid(…)`, the
 * spec's path types `c.req.param(…)`. At run time it only collects them; the path narrows the type.
 */
export const handlersFor = <P extends string>(_spec: { path: P }) => createHandlers as unknown as Factory<AppEnv, P>["createHandlers"];

// Loose on purpose: validators carry their own Env type; createHandlers has already checked the chain.
// biome-ignore lint/suspicious/noExplicitAny: any Env, path, input and response, as the comment above says
type Handlers = readonly [H<any, any, any, any>, ...H<any, any, any, any>[]];

export type NamedRoute = RouteSpec & { handlers: Handlers };

/** An area: its operations, in the order the app registers them (the OpenAPI document keeps it), and the
 * middleware some of its paths run first. */
export type Area = { operations: readonly NamedRoute[]; middleware?: readonly { path: string; handler: MiddlewareHandler<AppEnv> }[] };

/** An area of these operations, registered in the order given. */
export const areaOf = (...operations: readonly NamedRoute[]): Area => ({ operations });

/**
 * Registers an area's middleware and operations on the app, each path under `prefix` as Hono's route()
 * joins them. On the app itself rather than through a sub-app and route(), which registers every route
 * twice (once in the sub-app's router, once in the app's) and builds a router per area: a fresh isolate
 * does this at start-up (docs/performance.md). A route's describe() is a middleware that does nothing in
 * the Worker (its metadata is dropped from the bundle): it is left out of the chain, one dispatch less per
 * request.
 */
export function mountArea(app: Hono<AppEnv>, prefix: string, area: Area): void {
  for (const { path, handler } of area.middleware ?? []) app.use(mergePath(prefix, path), handler);
  for (const { method, path, handlers } of area.operations) {
    app.on(method, mergePath(prefix, path), ...(handlers.filter((handler) => handler !== passThrough) as unknown as Handlers));
  }
}

/**
 * A route's OpenAPI metadata: its prose (below the route) and, when it counts limits, one 429 made of
 * their sentences from the catalogue, after `ownTooMany`: a 429 of the route's own that is no catalogue
 * limit (a session's cap on failed digital-ID answers, counted by its Durable Object). Only called behind `OPENAPI_METADATA &&`, so none of it is in the Worker.
 */
export function documented({ limits }: Pick<RouteSpec, "limits">, doc: OperationDoc, ownTooMany?: string): OperationMeta {
  const declared = Object.values(limits);
  if (declared.length === 0 && !ownTooMany) return doc;
  const tooMany = [...(ownTooMany ? [ownTooMany] : []), ...declared.map((limit) => aboutLimit(limit).tooMany)].join(" ");
  return {
    ...doc,
    limits: declared.map((limit) => limit.name),
    responses: { ...doc.responses, 429: { description: tooMany, codes: ["RATE_LIMITED"] } },
  };
}
