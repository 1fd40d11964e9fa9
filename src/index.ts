// Worker entry: the HTTP app, the queue consumers, and the Durable Object class the runtime instantiates.
import { createApp } from "./app";
import { handleQueue } from "./callbacks/consumer";

export { VerificationSession } from "./session/verification-session";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
} satisfies ExportedHandler<Env>;
