// zod, with every schema built on first use instead of at module evaluation (docs/performance.md: start-up CPU).
// The Worker declares some 800 zod schemas at module scope; building them was about half of a fresh
// isolate's start-up CPU (14 of 28 ms, docs/performance.md "Start-up by dependency"), though a request
// parses a handful of them. Here each factory (`z.object(…)`, `z.string()`, …) returns a stand-in that
// records the call, and each builder method on it (`.max(…)`, `.optional()`, `.describe(…)`, …) records one
// more step; the first use of anything else (`.safeParse`, `._zod`, `.shape`, `instanceof`) builds the
// real schema once and forwards to it from then on. Types are zod's own: code imports this module as it
// would import zod (`import * as z from "…/lib/lazy-zod"`).
//
// The real schema is zod/mini's, each method replayed as its zod/mini function (src/lib/zod-mini-steps.ts):
// the same core schema, checks and issues as classic zod's, without classic zod in the Worker's bundle
// (docs/performance.md, 27 Nov 2026).
//
// The node project (OPENAPI_METADATA true: the OpenAPI builder and its checks) gets classic zod's factories
// unchanged: the document's generator keys metadata by the schema objects themselves. The one use of
// classic zod below sits behind the flag written out in full, so that esbuild, with the Worker's flag false,
// drops it and classic zod with it (test/node/startup-budget.test.ts); a `const` holding the flag is not
// folded.
import * as zod from "zod";
import * as mini from "zod/mini";
import type {} from "./build-flags";
import { builtOf, forwardingHandler, type Recipe } from "./built-on-first-use";
import { STEPS, useEnglishMessages } from "./zod-mini-steps";

export * from "zod";

/** A stand-in answers this key with its recipe; nothing else has it. */
const RECIPE = Symbol("recipe");

/** The real schema behind a stand-in, and stand-ins inside an object's shape or a union's options replaced. */
function real(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const recipe = (value as { [RECIPE]?: Recipe })[RECIPE];
  if (recipe) return builtOf(recipe);
  if (Array.isArray(value)) {
    const items = value.map(real);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const entries = Object.entries(value);
  const replaced = entries.map(([key, item]) => [key, real(item)] as const);
  return replaced.some(([, item], i) => item !== entries[i]![1]) ? Object.fromEntries(replaced) : value;
}

/** Forwards to the real schema, but records builder methods as steps of a new stand-in. */
const standInHandler: ProxyHandler<Recipe> = {
  ...forwardingHandler,
  get(recipe, key) {
    if (key === RECIPE) return recipe;
    // Methods that return a new schema: recorded, not run, until the schema is used.
    // Not Object.hasOwn: the browser scripts' type-check (src/web/assets/tsconfig.json, ES2020) reaches this file.
    // biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is ES2022, past the browser scripts' target
    const step = typeof key === "string" && Object.prototype.hasOwnProperty.call(STEPS, key) ? STEPS[key]! : undefined;
    if (step) {
      return (...args: unknown[]) => {
        // `.meta()` without arguments reads the metadata: a use, not a builder.
        if (key === "meta" && args.length === 0) return mini.globalRegistry.get(builtOf(recipe) as mini.ZodMiniType);
        return standIn(() => step(builtOf(recipe) as mini.ZodMiniType, ...args.map(real)));
      };
    }
    // Classic zod's getter, which zod/mini's schemas lack.
    if (key === "description") return mini.globalRegistry.get(builtOf(recipe) as mini.ZodMiniType)?.description;
    return Reflect.get(builtOf(recipe), key);
  },
};

const standIn = (build: () => object): object => new Proxy<Recipe>({ build }, standInHandler);

/** A factory of zod/mini whose schema is built on first use, with classic zod's English messages. */
// biome-ignore lint/suspicious/noExplicitAny: every zod factory, whatever its parameters; the arguments are forwarded as they came
function deferred<F extends (...args: any[]) => object>(factory: F): F {
  return ((...args: unknown[]) =>
    standIn(() => {
      useEnglishMessages();
      return factory(...args.map(real));
    })) as F;
}

/** The real schema behind a value of this module (itself when it was built eagerly). */
export const built = <T>(schema: T): T => real(schema) as T;

/** zod/mini's factories, each deferred; static names, so that esbuild keeps only these of zod/mini. */
const deferredMini = () => ({
  object: deferred(mini.object),
  string: deferred(mini.string),
  number: deferred(mini.number),
  int: deferred(mini.int),
  boolean: deferred(mini.boolean),
  literal: deferred(mini.literal),
  enum: deferred(mini.enum),
  array: deferred(mini.array),
  record: deferred(mini.record),
  union: deferred(mini.union),
  discriminatedUnion: deferred(mini.discriminatedUnion),
  email: deferred(mini.email),
  url: deferred(mini.url),
  unknown: deferred(mini.unknown),
  iso: {
    datetime: deferred(mini.iso.datetime),
    date: deferred(mini.iso.date),
    time: deferred(mini.iso.time),
    duration: deferred(mini.iso.duration),
  },
  coerce: {
    number: deferred(mini.coerce.number),
    string: deferred(mini.coerce.string),
    boolean: deferred(mini.coerce.boolean),
    bigint: deferred(mini.coerce.bigint),
    date: deferred(mini.coerce.date),
  },
});

// Classic zod where the OpenAPI document is generated; deferred zod/mini in the Worker and in a Node tool
// that defines neither (the bench's proofs' CPU). Typed as classic zod's: the stand-ins answer its methods.
const factories = typeof OPENAPI_METADATA !== "undefined" && OPENAPI_METADATA ? zod : (deferredMini() as unknown as typeof zod);
export const { object, string, number, int, boolean, literal, array, record, union, discriminatedUnion, email, url, unknown, iso, coerce } =
  factories;
// `enum` is a reserved word: declared under another name, exported as zod names it.
const enumSchema = factories.enum;
export { enumSchema as enum };
