// What every domain function takes first: the request's database handle (built once per request, or
// once per Durable Object or queue batch) and the configuration it reads secrets and settings from.
// Functions that only build a statement for someone else's db.batch([...]) take the `db` alone.
import type { Bindings } from "../config";
import { database, type Database } from "../db/client";

export type DomainContext = { db: Database; env: Bindings };

export const domainContext = (env: Bindings): DomainContext => ({ db: database(env.DB), env });
