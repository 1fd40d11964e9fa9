// Flags the build sets: esbuild's `define` in the Worker's bundle (wrangler.toml [define], in every
// environment), vitest.config.ts in the tests.
export {};

declare global {
  /**
   * Whether this build carries the routes' descriptions (`describe(OPENAPI_METADATA && {…})`): true where
   * the OpenAPI document is generated (the node tests, vitest.config.ts), "false" in the Worker's bundle
   * (wrangler.toml [define], in every environment), where esbuild then drops them: the Worker serves the
   * generated document as a static file and never reads them (docs/performance.md). Schemas are built
   * on first use where it is false (src/lib/lazy-zod.ts).
   */
  const OPENAPI_METADATA: boolean;
}
