// The first attempt of a resolution's callback, made at once where the session resolved (its Durable
// Object, once the resolution and its pending event are durable in D1), instead of after the queue's
// batch window (docs/performance.md): the merchant hears the answer within about one request to its server.
// It is the queue consumer's own delivery (claim, sign, send, record, decide), run on a message that
// lives here: an ack drops it, and a retry puts the event on the queue after the policy's wait, as the
// queue's own retry would. The queue stays the safety net: the session also enqueues a copy that waits
// for attempt 1 (src/session/callback-message.ts `safetyNetMessage`), which delivers if this attempt
// never ran or was cut off, and is dropped once attempt 1 has an outcome (its holder carried the event on).
import type { ServiceContext } from "../context/service-context";
import { log } from "../lib/log";
import type { QueuedCallback } from "./queued-callback";
import { processCallback } from "./consumer";

export async function deliverAtOnce(body: QueuedCallback, ctx: ServiceContext): Promise<void> {
  const enqueued: Promise<unknown>[] = [];
  const message: Message<QueuedCallback> = {
    id: body.webhookId,
    timestamp: new Date(),
    body,
    attempts: 1,
    ack: () => {},
    retry: (options?: QueueRetryOptions) => {
      enqueued.push(ctx.callbackQueue.send(body, options?.delaySeconds === undefined ? {} : { delaySeconds: options.delaySeconds }));
    },
  };
  try {
    await processCallback(message, ctx);
    await Promise.all(enqueued);
  } catch (error) {
    // The safety-net copy delivers it: nothing is lost by this attempt failing to run or to enqueue.
    log("warn", "first callback attempt could not run; the queue's copy delivers it", {
      webhookId: body.webhookId,
      error: error instanceof Error ? error.name : "unknown",
    });
  }
}
