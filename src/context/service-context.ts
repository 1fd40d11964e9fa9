// What every domain function takes first: the request's database handle (built once per request, or
// once per Durable Object or queue batch) and the configuration it reads secrets and settings from.
// Functions that only build a statement for someone else's db.batch([...]) take the `db` alone.
import type { Bindings } from "../config/settings";
import { database, type Database } from "../db/client";

/**
 * `linkOrigin`, development only: the origin the request reached, the base of account-mail links so a
 * server on any port mails working links (src/http/domain-context.ts). Production links use APP_URL.
 */
export type DomainContext = { db: Database; env: Bindings; linkOrigin?: string };

/** The base of the links in account mail. */
export const mailLinkBase = (ctx: DomainContext) => ctx.linkOrigin ?? ctx.env.APP_URL;

export const domainContext = (env: Bindings): DomainContext => ({ db: database(env.DB), env });
