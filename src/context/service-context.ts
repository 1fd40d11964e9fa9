// What every domain function takes first: the service context, built once per isolate at each entry
// point (a request, a queue batch, the scheduled run, a session's Durable Object) by src/service.ts.
// It carries the parsed settings and the ports, chosen once: the database, the identity provider, the
// mailer, the sessions' Durable Objects and the queues. Domain code reads these, never `env`.
// Functions that only build a statement for someone else's db.batch([...]) take the `db` alone.
import type { Settings } from "../config/settings";
import type { Database } from "../db/client";
import type { IdentityProvider } from "./identity-provider";
import type { Mailer } from "./mailer";

export type ServiceContext = {
  settings: Settings;
  db: Database;
  provider: IdentityProvider;
  mailer: Mailer;
  /** One Durable Object per verification session (src/session/session-stub.ts). */
  sessions: Env["SESSIONS"];
  /** The callback queue (src/callbacks/consumer.ts consumes it). */
  callbackQueue: Env["CALLBACKS"];
  /**
   * A resolution's first callback attempt, made at once by the session's Durable Object once the event
   * is durable (src/callbacks/first-attempt.ts); the queue keeps the retries and a safety-net copy.
   * Method syntax: the message is the session's CallbackMessage, a type from a layer above this one.
   */
  firstCallbackAttempt(message: { webhookId: string }): Promise<void>;
  /** The mail queue: account mail in production, and the provider's applicant deletions. */
  mailQueue: Env["MAIL"];
  /**
   * Development only: the origin the request reached, the base of account-mail links so a server on any
   * port mails working links (src/http/request-frame.ts). Production links use APP_URL.
   */
  linkOrigin?: string;
};

/** The base of the links in account mail. */
export const mailLinkBase = (ctx: ServiceContext) => ctx.linkOrigin ?? ctx.settings.appUrl;
