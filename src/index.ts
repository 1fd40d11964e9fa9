// Worker entry: the HTTP app, and the Durable Object class the runtime instantiates.
import { createApp } from "./app";

export { VerificationSession } from "./session/verification-session";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
