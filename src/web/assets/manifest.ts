// The apps' static assets: the browser scripts and the stylesheet, written beside their pages
// (src/apps/<app>/*.browser.js; the shared common.browser.js and app.css in src/web/) and served from
// public/assets, where each is a committed symlink to its source (test/node/asset-versions.test.ts keeps
// the links in step), by Workers Static Assets (wrangler.toml [assets]; headers in public/_headers),
// never through this Worker's code and not part of its script. They are type-checked as JavaScript
// with tsconfig.json in this folder. Each URL carries a hash of its file's content (versions.ts,
// generated and checked by the same test), so a deploy never serves a stale script next to a new page.
import { ASSET_VERSIONS } from "./versions";

/** The names pages ask for, and the file under public/assets (the URL path /assets/…) behind each. */
const FILES = {
  "app.css": "app.css",
  "verify.css": "verify.css",
  "console.css": "console.css",
  "api-reference.css": "api-reference.css",
  "common.js": "common.browser.js",
  "verify.js": "verify.browser.js",
  "passkeys.js": "passkeys.browser.js",
  "age-tokens.js": "age-tokens.browser.js",
  "console.js": "console.browser.js",
  "account.js": "account.browser.js",
  "account-page.js": "account-page.browser.js",
  "account.css": "account.css",
  "consent.js": "consent.browser.js",
  "qr-code.js": "qr-code.browser.js",
} as const satisfies Record<string, keyof typeof ASSET_VERSIONS>;

export type AssetName = keyof typeof FILES;

export const assetPath = (name: AssetName): string => `/assets/${FILES[name]}?v=${ASSET_VERSIONS[FILES[name]]}`;
