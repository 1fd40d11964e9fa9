// The apps' static assets, served by the Worker itself (no CDN, no build step). The files beside this
// one are imported as their text by the Text module rules in wrangler.toml (which the tests' pool reads
// too, and `npm run types` declares as string modules) and served byte for byte; they are type-checked
// as JavaScript with tsconfig.json in this folder. Each URL carries a hash of its content, so a deploy
// never serves a stale script next to a new page.
import ACCOUNT_SCRIPT from "./account.browser.js";
import STYLES from "./app.css";
import COMMON_SCRIPT from "./common.browser.js";
import CONSOLE_SCRIPT from "./console.browser.js";
import PASSKEYS_SCRIPT from "./passkeys.browser.js";
import VERIFY_SCRIPT from "./verify.browser.js";

const JS = "text/javascript; charset=utf-8";

export const ASSETS = {
  "app.css": { type: "text/css; charset=utf-8", body: STYLES },
  "common.js": { type: JS, body: COMMON_SCRIPT },
  "verify.js": { type: JS, body: VERIFY_SCRIPT },
  "passkeys.js": { type: JS, body: PASSKEYS_SCRIPT },
  "console.js": { type: JS, body: CONSOLE_SCRIPT },
  "account.js": { type: JS, body: ACCOUNT_SCRIPT },
} as const;

export type AssetName = keyof typeof ASSETS;

export const isAssetName = (name: string): name is AssetName => Object.hasOwn(ASSETS, name);

/** FNV-1a: a cheap, synchronous content hash for cache busting (not a security property). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

const versions = new Map<AssetName, string>();

export function assetPath(name: AssetName): string {
  let version = versions.get(name);
  if (!version) versions.set(name, (version = fnv1a(ASSETS[name].body)));
  return `/assets/${name}?v=${version}`;
}
