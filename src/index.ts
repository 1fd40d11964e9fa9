// Worker entry: the HTTP app, the queue consumers, the scheduled maintenance, and the Durable Object
// class the runtime instantiates.
import { createApp } from "./app";
import { runMaintenance } from "./maintenance/run";
import { dispatchQueue } from "./queue-dispatch";

export { VerificationSession } from "./session/verification-session";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: dispatchQueue,
  scheduled: async (controller, env) => {
    await runMaintenance(controller, env);
  },
} satisfies ExportedHandler<Env>;
