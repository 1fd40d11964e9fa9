// Runs the Worker's own scheduled handler, as the Cron Trigger does.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";

export async function runScheduled(bindings: Env = env, scheduledTime = Date.now()) {
  const controller = createScheduledController({ scheduledTime, cron: "*/5 * * * *" });
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).scheduled!(controller, bindings, ctx);
  await waitOnExecutionContext(ctx);
}

export const daysAgo = (days: number, from = Date.now()) => new Date(from - days * 24 * 60 * 60 * 1000).toISOString();
