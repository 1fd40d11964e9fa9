// Development-only helpers (404 in production): the mail outbox.
import { desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import * as z from "zod";
import { devOutbox } from "../db/schema";
import { EmailField } from "../domain/accounts";
import type { AppEnv } from "../http/app-env";
import { developmentOnly } from "../http/guards";
import { describe } from "../http/openapi-meta";
import { ok } from "../http/respond";
import { queryParams } from "../http/validate";

const OutboxMessage = z.object({ to: z.string(), subject: z.string(), text: z.string(), createdAt: z.string() });

export const devRoutes = new Hono<AppEnv>().get(
  "/outbox",
  describe(OPENAPI_METADATA && {
    tag: "Auth",
    summary: "Mail sent to an address, newest first",
    devOnly: true,
    responses: { 200: { description: "Messages", data: z.object({ messages: z.array(OutboxMessage) }) } },
  }),
  developmentOnly,
  queryParams(z.object({ to: EmailField })),
  async (c) => {
    const rows = await c.var.ctx.db
      .select({ to: devOutbox.to, subject: devOutbox.subject, text: devOutbox.text, createdAt: devOutbox.createdAt })
      .from(devOutbox)
      .where(eq(devOutbox.to, c.req.valid("query").to))
      .orderBy(desc(devOutbox.id))
      .limit(50);
    return ok(c, { messages: rows });
  },
);
