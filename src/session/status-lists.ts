// How the session's Durable Object reaches the status lists of wallet credentials (docs/digital-id.md,
// "Status"): the Worker's own fetch, and a cache in two levels. The Cache API (a named cache, keyed by
// the list's URI) is shared by every isolate of the deployment in one Cloudflare location; a small map in
// the isolate answers first, and is all there is where the Cache API does nothing (workers.dev, local
// development). Both hold only what the verifier kept: a list it verified, until the time it chose (the
// list's ttl, at most a day); it verifies a cached list again on every use, so a copy another Worker of
// the zone put under the same key cannot pass. Nothing of a person is in a key or a value: a list is the
// issuer's, the same bytes for every holder.
import type { CachedStatusList, StatusListPort } from "../digital-id";

/** Lists kept in one isolate; the oldest goes first. */
const MEMORY_ENTRIES = 64;
const CACHE_NAME = "digital-id-status-lists";
const FRESH_UNTIL = "x-fresh-until";

export type StatusListSourceOptions = { memory?: Map<string, CachedStatusList>; cacheName?: string };

export function statusListSource({ memory = new Map(), cacheName = CACHE_NAME }: StatusListSourceOptions = {}): StatusListPort {
  return {
    // The global fetch as it is when called (tests replace it): no cookie jar, no credentials in Workers.
    fetch: (url, init) => fetch(url, init),

    async read(uri) {
      const remembered = memory.get(uri);
      if (remembered) return remembered;
      const cached = await (await caches.open(cacheName)).match(uri);
      const freshUntil = Number(cached?.headers.get(FRESH_UNTIL));
      if (!cached || !Number.isFinite(freshUntil)) return undefined;
      const entry = { token: new Uint8Array(await cached.arrayBuffer()), freshUntil };
      remember(memory, uri, entry);
      return entry;
    },

    async keep(uri, entry) {
      remember(memory, uri, entry);
      const seconds = Math.max(1, Math.ceil((entry.freshUntil - Date.now()) / 1000));
      await (await caches.open(cacheName)).put(
        uri,
        new Response(entry.token, { headers: { "cache-control": `max-age=${seconds}`, [FRESH_UNTIL]: String(entry.freshUntil) } }),
      );
    },
  };
}

function remember(memory: Map<string, CachedStatusList>, uri: string, entry: CachedStatusList): void {
  memory.delete(uri);
  memory.set(uri, entry);
  while (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
}

/** The isolate's own source, as the session's Durable Object uses it. */
export const isolateStatusLists = statusListSource();
