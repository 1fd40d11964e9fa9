// Flags the build sets: esbuild's `define` in the Worker's bundle (wrangler.toml [define], in every
// environment), vitest.config.ts in the tests. A Node tool that imports the Worker's modules without a
// bundler sets them on globalThis first (test/bench/build-flags.ts).
export {};

declare global {
  /**
   * Whether this build carries the routes' descriptions (`describe(OPENAPI_METADATA && {…})`) and the
   * schemas' (`z.describe(OPENAPI_METADATA ? "…" : "")`): true where
   * the OpenAPI document is generated (the node tests, vitest.config.ts), "false" in the Worker's bundle
   * (wrangler.toml [define], in every environment), where esbuild then drops them: the Worker serves the
   * generated document as a static file and never reads them (docs/performance.md). Schemas are built
   * on first use where it is false (src/lib/lazy-zod.ts).
   */
  const OPENAPI_METADATA: boolean;
  /**
   * Whether this build carries the development pages (src/apps/dev: /dev/outbox): "true" in wrangler.toml's
   * development [define] and in the tests (vitest.config.ts), "false" in [env.production] and [env.staging],
   * whose scripts then leave the pages' modules out (docs/performance.md "Bundle"). The pages also answer
   * 404 under production settings at run time (src/http/guards.ts developmentOnly).
   */
  const DEVELOPMENT_PAGES: boolean;
}
