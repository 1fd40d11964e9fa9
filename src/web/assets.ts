// The apps' static assets, served by the Worker itself (no CDN, no build step). Each URL carries a
// hash of its content, so a deploy never serves a stale script next to a new page.
import { ACCOUNT_SCRIPT } from "./assets/account-script";
import { COMMON_SCRIPT } from "./assets/common-script";
import { CONSOLE_SCRIPT } from "./assets/console-script";
import { STYLES } from "./assets/styles";
import { VERIFY_SCRIPT } from "./assets/verify-script";

const JS = "text/javascript; charset=utf-8";

export const ASSETS = {
  "app.css": { type: "text/css; charset=utf-8", body: STYLES },
  "common.js": { type: JS, body: COMMON_SCRIPT },
  "verify.js": { type: JS, body: VERIFY_SCRIPT },
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
