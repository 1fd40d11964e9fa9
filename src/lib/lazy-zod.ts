// zod/mini, with every schema built on first use instead of at module evaluation (docs/performance.md: start-up CPU).
// The Worker declares some 800 zod schemas at module scope; building them was about half of a fresh
// isolate's start-up CPU (14 of 28 ms, docs/performance.md "Start-up by dependency"), though a request
// parses a handful of them. Code imports this module as it would import zod/mini
// (`import * as z from "…/lib/lazy-zod"`) and writes zod/mini's own API: the types are zod/mini's, and so is
// everything that runs. zod/mini has no builder methods (`z.optional(z.string().check(z.maxLength(64)))`),
// so a bundle holds only the functions its schemas call: classic zod in the Worker would be all of it
// (9.5 KB gzip, docs/performance.md, 27 Nov 2026).
//
// Where deferral is on, each of the functions below returns a stand-in that records the call; the first
// use of anything on it (`.safeParse`, `._zod`, `.shape`, `instanceof`) builds the real schema once, with
// every stand-in among the arguments replaced by its real schema, and forwards to it from then on. The
// stand-in records only zod/mini's own methods that return a new schema, `.check(…)` and its alias
// `.with(…)`, so that `z.string().check(…)` at module scope builds nothing either. Checks (`z.maxLength(…)`,
// `z.describe(…)`, …) are deferred too, each by a lighter stand-in (DeferredCheck below): zod constructs a
// check as it does a schema (test/node/startup-budget.test.ts counts both).
//
// The node project (OPENAPI_METADATA true: the OpenAPI builder and its checks) gets zod/mini's functions
// unchanged, its schemas built eagerly, as the document's generator walks real schemas.
//
// zod/mini's `.check(…)` copies a schema's definition by spreading it, which reads a `_default`'s value
// once: a default built by a function, or an object or list default that a parse may change, must not be
// followed by `.check(…)` (every default here is a number, a string or a fresh list with nothing after it).
import * as mini from "zod/mini";
import en from "zod/v4/locales/en.js";
import type {} from "./build-flags";
import { builtOf, forwardingHandler, type Recipe } from "./built-on-first-use";

export * from "zod/mini";

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

/** Forwards to the real schema, but records `.check(…)` (and `.with(…)`, the same method) as a new stand-in. */
const standInHandler: ProxyHandler<Recipe> = {
  ...forwardingHandler,
  get(recipe, key) {
    if (key === RECIPE) return recipe;
    if (key === "check" || key === "with") {
      return (...checks: unknown[]) => standIn(() => (builtOf(recipe) as mini.ZodMiniType).check(...(checks.map(real) as [])));
    }
    return Reflect.get(builtOf(recipe), key);
  },
};

const standIn = (build: () => object): object => new Proxy<Recipe>({ build }, standInHandler);

let localeSet = false;
/** Classic zod sets its English messages when imported; zod/mini leaves that to its user. */
function useEnglishMessages(): void {
  if (localeSet) return;
  mini.config(en());
  localeSet = true;
}

/** What a call of zod/mini makes, with every stand-in among its arguments replaced; with English messages. */
// biome-ignore lint/suspicious/noExplicitAny: every zod/mini function, whatever its parameters
function madeOf(make: (...args: any[]) => object, args: unknown[]): object {
  useEnglishMessages();
  return make(...args.map(real));
}

/** A function of zod/mini whose schema is built on first use. */
// biome-ignore lint/suspicious/noExplicitAny: every zod/mini function, whatever its parameters; the arguments are forwarded as they came
function deferred<F extends (...args: any[]) => object>(make: F): F {
  return ((...args: unknown[]) => standIn(() => madeOf(make, args))) as F;
}

/**
 * A check made on first use. zod reads nothing of a check but its `_zod` (the definition, the function that
 * runs it, its hooks), so its stand-in is an object whose `_zod` builds it, not a proxy: the Worker
 * declares some 500 checks at module scope, and a proxy costs twice the object.
 */
class DeferredCheck implements Recipe {
  built?: object;
  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: every check function of zod/mini, whatever its parameters
    private readonly make: (...args: any[]) => object,
    private readonly args: unknown[],
  ) {}
  build(): object {
    return madeOf(this.make, this.args);
  }
  get [RECIPE](): Recipe {
    return this;
  }
  get _zod(): unknown {
    return (builtOf(this) as { _zod: unknown })._zod;
  }
}

/** A check function of zod/mini (one that makes a check, not a schema) whose check is built on first use. */
// biome-ignore lint/suspicious/noExplicitAny: every check function of zod/mini, whatever its parameters; the arguments are forwarded as they came
function deferredCheck<F extends (...args: any[]) => object>(make: F): F {
  return ((...args: unknown[]) => new DeferredCheck(make, args)) as unknown as F;
}

/** The real schema behind a value of this module (itself when it was built eagerly). */
export const built = <T>(schema: T): T => real(schema) as T;

/** The functions the schemas call, each deferred; static names, so that esbuild keeps only these of zod/mini. */
const deferredMini = () => ({
  // Schemas.
  object: deferred(mini.object),
  strictObject: deferred(mini.strictObject),
  looseObject: deferred(mini.looseObject),
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
  never: deferred(mini.never),
  iso: {
    datetime: deferred(mini.iso.datetime),
    date: deferred(mini.iso.date),
  },
  coerce: {
    number: deferred(mini.coerce.number),
  },
  // Schemas made from schemas.
  optional: deferred(mini.optional),
  nullable: deferred(mini.nullable),
  nullish: deferred(mini.nullish),
  _default: deferred(mini._default),
  extend: deferred(mini.extend),
  catchall: deferred(mini.catchall),
  pipe: deferred(mini.pipe),
  // Checks. `refine` makes a schema that serves as a check, and `int` (above) is a schema too: proxies.
  minLength: deferredCheck(mini.minLength),
  maxLength: deferredCheck(mini.maxLength),
  length: deferredCheck(mini.length),
  gte: deferredCheck(mini.gte),
  lte: deferredCheck(mini.lte),
  regex: deferredCheck(mini.regex),
  trim: deferredCheck(mini.trim),
  toLowerCase: deferredCheck(mini.toLowerCase),
  toUpperCase: deferredCheck(mini.toUpperCase),
  superRefine: deferredCheck(mini.superRefine),
  describe: deferredCheck(mini.describe),
  refine: deferred(mini.refine),
});

// zod/mini's own functions where the OpenAPI document is generated; deferred in the Worker and in a Node
// tool that defines neither (the bench's proofs' CPU). The flag is written out in full, so that esbuild,
// with the Worker's flag false, drops the eager branch, which names zod/mini's whole namespace; a `const`
// holding the flag is not folded. Any other function of zod/mini (`export *` above) is its own, eager:
// one called at module scope builds at start-up, and test/node/startup-budget.test.ts says so.
if (typeof OPENAPI_METADATA !== "undefined" && OPENAPI_METADATA) useEnglishMessages();
const functions: ReturnType<typeof deferredMini> = typeof OPENAPI_METADATA !== "undefined" && OPENAPI_METADATA ? mini : deferredMini();
export const {
  object,
  strictObject,
  looseObject,
  string,
  number,
  int,
  boolean,
  literal,
  array,
  record,
  union,
  discriminatedUnion,
  email,
  url,
  unknown,
  never,
  iso,
  coerce,
  optional,
  nullable,
  nullish,
  _default,
  extend,
  catchall,
  pipe,
  minLength,
  maxLength,
  length,
  gte,
  lte,
  regex,
  trim,
  toLowerCase,
  toUpperCase,
  refine,
  superRefine,
  describe,
} = functions;
// `enum` is a reserved word: declared under another name, exported as zod names it.
const enumSchema = functions.enum;
export { enumSchema as enum };
