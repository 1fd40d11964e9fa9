// GET /api/dev/outbox (development only, 404 in production): the mail sent to an address, newest first.
import { desc, eq } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { devOutbox } from "../../db/schema";
import { EmailField } from "../../domain/accounts";
import { developmentOnly } from "../../http/guards";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { readOutboxDoc } from "./docs";

const spec = { method: "get", path: "/outbox", limits: {} } as const satisfies RouteSpec;

export const readOutboxRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, readOutboxDoc())),
    developmentOnly,
    queryParams(z.object({ to: EmailField })),
    async function readOutbox(c) {
      const rows = await c.var.ctx.home
        .select({ to: devOutbox.to, subject: devOutbox.subject, text: devOutbox.text, createdAt: devOutbox.createdAt })
        .from(devOutbox)
        .where(eq(devOutbox.to, c.req.valid("query").to))
        .orderBy(desc(devOutbox.id))
        .limit(50);
      return ok(c, { messages: rows });
    },
  ),
} satisfies NamedRoute;
