// An object built on its first use instead of at module evaluation (docs/performance.md: start-up CPU). A proxy
// stands in for it: the first property read, write, `in`, `instanceof` or key listing builds the object
// once, and every later one is forwarded to it. Modules declare many such objects at their top level
// (zod schemas, src/lib/lazy-zod.ts; drizzle's tables, src/db/schema.ts), and a fresh isolate uses few.

/** A stand-in's target: how to build its object, and the object once built. */
export type Recipe<T extends object = object> = { build: () => T; built?: T };

/** The object behind a recipe, built on the first call. */
export const builtOf = <T extends object>(recipe: Recipe<T>): T => (recipe.built ??= recipe.build());

/** Forwards everything to the built object; one handler for every stand-in, so a stand-in costs its target and a proxy. */
export const forwardingHandler: ProxyHandler<Recipe> = {
  get: (recipe, key) => Reflect.get(builtOf(recipe), key),
  set: (recipe, key, value) => Reflect.set(builtOf(recipe), key, value),
  has: (recipe, key) => key in builtOf(recipe),
  getPrototypeOf: (recipe) => Object.getPrototypeOf(builtOf(recipe)),
  ownKeys: (recipe) => Reflect.ownKeys(builtOf(recipe)),
  getOwnPropertyDescriptor(recipe, key) {
    const descriptor = Reflect.getOwnPropertyDescriptor(builtOf(recipe), key);
    // A proxy may not report a property its target lacks as non-configurable.
    return descriptor && { ...descriptor, configurable: true };
  },
};

/** `build()`'s object, built on its first use. */
export const builtOnFirstUse = <T extends object>(build: () => T): T => new Proxy<Recipe>({ build }, forwardingHandler) as T;
