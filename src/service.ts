// The service, wired: one ServiceContext per isolate, built from the bindings at each entry point (a
// request, a queue batch, the scheduled run, a session's Durable Object: src/index.ts, src/app.ts). The
// settings are parsed once (src/config/settings.ts) and the ports chosen once: the provider and mailer
// adapters, every D1 shard's database, the sessions' Durable Objects and the queues. workerd hands the
// same bindings object to everything an isolate runs, so this builds once; a test's own env object gets
// its own. The context is a root: it has no chosen shard until an entry point picks the account's
// (src/context/shard-routing.ts).
import { settingsOf, type Bindings } from "./config/settings";
import { shardBindingName } from "./config/shards-setting";
import type { ServiceContext } from "./context/service-context";
import { rootContext } from "./context/shard-contexts";
import { database } from "./db/client";
import { devOutboxMailer } from "./mail/dev-outbox-mailer";
import { emailServiceMailer } from "./mail/email-service";
import { providerFor } from "./providers/from-env";
import { perObject } from "./lib/per-object";

function build(env: Bindings): ServiceContext {
  const settings = settingsOf(env);
  const bindings = env as unknown as Record<string, D1Database>;
  const shards = Array.from({ length: settings.shards.count }, (_, shard) => database(bindings[shardBindingName(shard)]!));
  const home = shards[0]!;
  return rootContext({
    settings,
    shards,
    home,
    provider: providerFor(settings, env.DB),
    mailer: settings.production ? emailServiceMailer(env.MAILER, settings.mailFrom) : devOutboxMailer(home),
    sessions: env.SESSIONS,
    callbackQueue: env.CALLBACKS,
    mailQueue: env.MAIL,
  });
}

/** The isolate's service context: built once per bindings object (src/lib/per-object.ts). */
export const serviceContext: (env: Bindings) => ServiceContext = perObject(build);
