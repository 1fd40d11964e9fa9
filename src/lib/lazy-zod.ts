// zod, with every schema built on first use instead of at module evaluation (issue 35: start-up CPU).
// The Worker declares some 800 zod schemas at module scope; building them was about half of a fresh
// isolate's start-up CPU (14 of 28 ms, docs/performance.md "Start-up by dependency"), though a request
// parses a handful of them. Here each factory (`z.object(…)`, `z.string()`, …) returns a stand-in that
// records the call, and each builder method on it (`.max(…)`, `.optional()`, `.describe(…)`, …) records one
// more step; the first use of anything else (`.safeParse`, `._zod`, `.shape`, `instanceof`) builds the
// real schema once, exactly as the eager code would have, and forwards to it from then on. Types are
// zod's own: code imports this module as it would import zod (`import * as z from "…/lib/lazy-zod"`).
//
// The node project (OPENAPI_METADATA true: the OpenAPI builder and its checks) gets zod's factories
// unchanged: the document's generator keys metadata by the schema objects themselves.
import * as zod from "zod";
import type {} from "./build-flags";

export * from "zod";

/** Methods that return a new schema: recorded, not run, until the schema is used. */
const BUILDERS = new Set([
  "optional", "nullable", "nullish", "describe", "meta", "min", "max", "length", "regex", "refine", "superRefine", "transform",
  "pipe", "default", "prefault", "catch", "extend", "safeExtend", "pick", "omit", "partial", "required", "strict", "strip",
  "passthrough", "loose", "catchall", "array", "or", "and", "brand", "readonly", "check", "with", "overwrite", "trim",
  "toLowerCase", "toUpperCase", "normalize", "lowercase", "uppercase", "startsWith", "endsWith", "includes", "nonempty",
  "int", "gt", "gte", "lt", "lte", "positive", "negative", "nonnegative", "nonpositive", "multipleOf", "step",
]);

/** A stand-in's target: how to build its real schema, and the schema once built. */
type Recipe = { build: () => object; built?: object };
const schemaOf = (recipe: Recipe) => (recipe.built ??= recipe.build());

/** A stand-in answers this key with its recipe; nothing else has it. */
const RECIPE = Symbol("recipe");

/** The real schema behind a stand-in, and stand-ins inside an object's shape or a union's options replaced. */
function real(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const recipe = (value as { [RECIPE]?: Recipe })[RECIPE];
  if (recipe) return schemaOf(recipe);
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

/** One handler for every stand-in (a proxy costs its target and nothing more). */
const standInHandler: ProxyHandler<Recipe> = {
  get(recipe, key) {
    if (key === RECIPE) return recipe;
    if (typeof key === "string" && BUILDERS.has(key)) {
      return (...args: unknown[]) => {
        // `.meta()` without arguments reads the metadata: a use, not a builder.
        if (key === "meta" && args.length === 0) return (schemaOf(recipe) as { meta(): unknown }).meta();
        return standIn(() => (schemaOf(recipe) as Record<string, (...a: unknown[]) => object>)[key]!(...args.map(real)));
      };
    }
    return Reflect.get(schemaOf(recipe), key);
  },
  set: (recipe, key, value) => Reflect.set(schemaOf(recipe), key, value),
  has: (recipe, key) => key in schemaOf(recipe),
  getPrototypeOf: (recipe) => Object.getPrototypeOf(schemaOf(recipe)),
  ownKeys: (recipe) => Reflect.ownKeys(schemaOf(recipe)),
  getOwnPropertyDescriptor(recipe, key) {
    const descriptor = Reflect.getOwnPropertyDescriptor(schemaOf(recipe), key);
    // A proxy may not report a property its target lacks as non-configurable.
    return descriptor && { ...descriptor, configurable: true };
  },
};

const standIn = (build: () => object): object => new Proxy<Recipe>({ build }, standInHandler);

/** Off where the OpenAPI document is generated; on in the Worker and in a Node tool that defines neither (the bench's proofs' CPU). */
const DEFER = typeof OPENAPI_METADATA === "undefined" || !OPENAPI_METADATA;

function deferred<F extends (...args: any[]) => object>(factory: F): F {
  if (!DEFER) return factory;
  return ((...args: unknown[]) => standIn(() => factory(...args.map(real)))) as F;
}

/** The real schema behind a value of this module (itself when it was built eagerly). */
export const built = <T>(schema: T): T => real(schema) as T;

export const object = deferred(zod.object);
export const string = deferred(zod.string);
export const number = deferred(zod.number);
export const int = deferred(zod.int);
export const boolean = deferred(zod.boolean);
export const literal = deferred(zod.literal);
// `enum` is a reserved word: declared under another name, exported as zod names it.
const enumSchema = deferred(zod.enum);
export { enumSchema as enum };
export const array = deferred(zod.array);
export const record = deferred(zod.record);
export const union = deferred(zod.union);
export const discriminatedUnion = deferred(zod.discriminatedUnion);
export const email = deferred(zod.email);
export const url = deferred(zod.url);
export const unknown = deferred(zod.unknown);
export const iso = { ...zod.iso, datetime: deferred(zod.iso.datetime), date: deferred(zod.iso.date) };
export const coerce = { ...zod.coerce, number: deferred(zod.coerce.number) };
