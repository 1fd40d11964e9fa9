// GET /api/dev/outbox (development only, 404 in production): the mail sent to an address, newest first
// (as a page with clickable links: /dev/outbox, src/apps/dev/outbox-page.tsx).
import * as z from "../../lib/lazy-zod";
import { readDevOutbox } from "../../mail/read-dev-outbox";
import { EmailField } from "../../domain/accounts";
import { developmentOnly } from "../../http/guards";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/outbox", limits: {} } as const satisfies RouteSpec;

export const readOutboxRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, readOutboxDoc())),
    developmentOnly,
    queryParams(z.object({ to: EmailField })),
    async function readOutbox(c) {
      return ok(c, { messages: await readDevOutbox(c.var.ctx, c.req.valid("query").to) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function readOutboxDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Mail sent to an address, newest first",
    devOnly: true,
    responses: {
      200: {
        description: "Messages",
        data: z.object({ messages: z.array(z.object({ to: z.string(), subject: z.string(), text: z.string(), createdAt: z.string() })) }),
      },
    },
  };
}
