// The Worker's build flags (src/lib/build-flags.ts) for a Node tool that imports the Worker's modules
// without a bundler (tsx): set before any of them is evaluated, so import this module first. The values
// are the development Worker's (wrangler.toml [define]): no OpenAPI descriptions, schemas built on first use.
Object.assign(globalThis, { OPENAPI_METADATA: false, DEVELOPMENT_PAGES: true });
