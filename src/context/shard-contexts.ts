// The root service context and its per-shard views (docs/operations.md). The root holds the ports and every
// shard's database but no chosen shard: reading its `db` throws, so an entry point that forgot to choose
// the account's shard fails loudly (in the 2-shard tests) instead of silently using shard 0. Each view
// is the same context with `db` and `shard` set, built once per shard per root.
import type { Database } from "../db/client";
import type { ServiceContext } from "./service-context";

/** Everything but the chosen shard. */
export type ContextParts = Omit<ServiceContext, "db" | "shard" | "onShard">;

const noShardChosen = (): never => {
  throw new Error("no shard chosen: this path must pick the account's shard first (src/context/shard-routing.ts)");
};

const partsOf = new WeakMap<ServiceContext, ContextParts>();

export function rootContext(parts: ContextParts): ServiceContext {
  const views: ServiceContext[] = [];
  const onShard = (shard: number): ServiceContext => {
    const db: Database | undefined = parts.shards[shard];
    if (!db) throw new Error(`no D1 binding for shard ${shard}`);
    let view = views[shard];
    if (!view) {
      view = views[shard] = { ...parts, db, shard, onShard };
      partsOf.set(view, parts);
    }
    return view;
  };
  const root = { ...parts, shard: undefined, onShard } as Omit<ServiceContext, "db">;
  // Not enumerable: a spread copy of the root (a test overriding a port) has no db rather than a throwing one.
  Object.defineProperty(root, "db", { get: noShardChosen, enumerable: false });
  partsOf.set(root as ServiceContext, parts);
  return root as ServiceContext;
}

/**
 * The context with some ports replaced (the request's mail origin, a test's stand-in) on the same shard
 * (or none): a new root with its own views, so a view derived from it keeps the change.
 */
export function withParts(ctx: ServiceContext, changes: Partial<ContextParts>): ServiceContext {
  const parts = partsOf.get(ctx);
  if (!parts) throw new Error("withParts takes a context built by rootContext");
  const changed = rootContext({ ...parts, ...changes });
  return ctx.shard === undefined ? changed : changed.onShard(ctx.shard);
}
