// Wraps the D1 and Durable Object bindings to count storage round trips per request.
import { env } from "cloudflare:test";

export type Counts = { d1: number; durableObject: number };

function countingD1(db: D1Database, counts: Counts): D1Database {
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        if (["first", "all", "run", "raw"].includes(String(prop))) {
          return (...args: unknown[]) => {
            counts.d1++;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          counts.d1++;
          // Statements reach batch() wrapped; unwrap them for the real binding.
          return target.batch(statements);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
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
  const counts: Counts = { d1: 0, durableObject: 0 };
  return { env: { ...env, DB: countingD1(env.DB, counts), SESSIONS: countingNamespace(env.SESSIONS, counts) } as Env, counts };
}
