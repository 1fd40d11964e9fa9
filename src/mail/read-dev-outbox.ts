// The development outbox's newest mail to one address: what GET /api/dev/outbox answers as JSON and the
// /dev/outbox page shows with its links clickable. Production never writes the outbox.
import { desc, eq } from "drizzle-orm";
import type { ServiceContext } from "../context/service-context";
import { devOutbox } from "../db/schema";

/** Newest first, at most 50 (older ones hold links that have expired or soon will: maintenance prunes them). */
export const readDevOutbox = (ctx: ServiceContext, to: string) =>
  ctx.home
    .select({ to: devOutbox.to, subject: devOutbox.subject, text: devOutbox.text, createdAt: devOutbox.createdAt })
    .from(devOutbox)
    .where(eq(devOutbox.to, to))
    .orderBy(desc(devOutbox.id))
    .limit(50);
