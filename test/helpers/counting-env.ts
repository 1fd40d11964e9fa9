// Wraps the D1 and Durable Object bindings to count storage round trips per request. Every D1 shard is
// wrapped (docs/operations.md): `d1` is the total over all of them, `d1ByShard` the same round trips by shard, so a
// test can show which shards a request touched.
import { env } from "cloudflare:test";
import { shardBindingName } from "../../src/config/shards-setting";
import { shardBindings } from "./shards";
import { aroundD1 } from "./around-d1";

export type Counts = { d1: number; durableObject: number; d1ByShard: number[] };

function countingD1(db: D1Database, counts: Counts, shard: number): D1Database {
  return aroundD1(db, (call) => {
    counts.d1++;
    counts.d1ByShard[shard]!++;
    return call();
  });
}

function countingNamespace(namespace: DurableObjectNamespace, counts: Counts): DurableObjectNamespace {
  return new Proxy(namespace, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "get") {
        return (id: DurableObjectId) => {
          const stub = target.get(id);
          return new Proxy(stub, {
            get(stubTarget, method) {
              const member = Reflect.get(stubTarget, method);
              if (typeof member !== "function") return member;
              return (...args: unknown[]) => {
                counts.durableObject++;
                return Reflect.apply(member, stubTarget, args);
              };
            },
          });
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function countingEnv(): { env: Env; counts: Counts } {
  const shards = shardBindings();
  const counts: Counts = { d1: 0, durableObject: 0, d1ByShard: shards.map(() => 0) };
  const wrapped = Object.fromEntries(shards.map((d1, shard) => [shardBindingName(shard), countingD1(d1, counts, shard)]));
  return { env: { ...env, ...wrapped, SESSIONS: countingNamespace(env.SESSIONS, counts) } as Env, counts };
}
