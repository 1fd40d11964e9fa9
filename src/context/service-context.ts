// What every domain function takes first: the service context, built once per isolate at each entry
// point (a request, a queue batch, the scheduled run, a session's Durable Object) by src/service.ts.
// It carries the parsed settings and the ports, chosen once: the database, the identity provider, the
// mailer, the sessions' Durable Objects and the queues. Domain code reads these, never `env`.
// Functions that only build a statement for someone else's db.batch([...]) take the `db` alone.
// Account data is sharded across D1 databases (docs/operations.md): `db` is the shard of the account the work is
// for, chosen at the entry point (src/context/shard-routing.ts); the isolate's root context has no
// shard, and its `db` throws, so a path that forgot to choose fails loudly instead of reading shard 0.
import type { Settings } from "../config/settings";
import type { Database } from "../db/client";
import type { IdentityProvider } from "./identity-provider";
import type { Mailer } from "./mailer";

export type ServiceContext = {
  settings: Settings;
  /** The chosen shard's database: every table of an account (src/context/shard-contexts.ts says which are not). */
  db: Database;
  /** The chosen shard's number; undefined on the root context, which has none. */
  shard: number | undefined;
  /** Every shard's database by number (shard 0 is DB, shard n is DB_n). */
  shards: readonly Database[];
  /** Shard 0, home of the tables that are no account's: the email directory, applicant shards, spent age tokens, the development outbox. */
  home: Database;
  /** The same context on shard n (cached: one object per shard per root context). */
  onShard(shard: number): ServiceContext;
  provider: IdentityProvider;
  mailer: Mailer;
  /** One Durable Object per verification session (src/session/session-stub.ts). */
  sessions: Env["SESSIONS"];
  /** The callback queue (src/callbacks/consumer.ts consumes it). */
  callbackQueue: Env["CALLBACKS"];
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
