// Worker entry: the HTTP app, the queue consumers, the scheduled maintenance, and the Durable Object
// class the runtime instantiates. Each entry point works on the isolate's one service context
// (src/service.ts).
import { createApp } from "./app";
import { runMaintenance } from "./maintenance/run";
import { dispatchQueue } from "./queue-dispatch";
import { serviceContext } from "./service";
import { VerificationSessionObject } from "./session/verification-session";

/** One per verification session (wrangler.toml `class_name`): the session's logic with the isolate's context. */
export class VerificationSession extends VerificationSessionObject {
  constructor(state: DurableObjectState, env: Env) {
    super(state, env, serviceContext(env));
  }
}

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => dispatchQueue(batch, serviceContext(env)),
  scheduled: async (controller, env) => {
    await runMaintenance(controller, serviceContext(env));
  },
} satisfies ExportedHandler<Env>;
