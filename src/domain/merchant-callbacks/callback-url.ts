// callback_url rules (docs/api-contract.md §Sessions): absolute https, at most 2048 characters, no credentials, and not an
// IP literal in a private, loopback, link-local, unique-local or otherwise non-public range. The URL
// parser already turns decimal, octal and hex IPv4 spellings into dotted quads, so one check covers them.
// In production only the default https port (443): a port is a way to reach a service that is not a web
// receiver (docs/security-privacy.md). A name is resolved again at each delivery (src/callbacks/callback-host.ts).
import { isNonPublicAddress } from "../../lib/ip-address";

export const MAX_CALLBACK_URL_LENGTH = 2048;

const LOCAL_DEV_HOSTS = new Set(["localhost", "127.0.0.1"]);

/** Null when the URL is acceptable, otherwise the reason for the 422 item. */
export function callbackUrlProblem(raw: string, options: { allowLocalHttp: boolean }): string | null {
  if (raw.length > MAX_CALLBACK_URL_LENGTH) return `Use at most ${MAX_CALLBACK_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Use an absolute https:// URL.";
  }
  if (url.username || url.password) return "The URL must not carry credentials.";
  // A fully qualified name may end with a dot ("localhost." resolves like "localhost"), so compare without it.
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  if (options.allowLocalHttp && url.protocol === "http:" && LOCAL_DEV_HOSTS.has(host)) return null;
  if (url.protocol !== "https:") return "Use an absolute https:// URL.";
  if (host === "" || host === "localhost" || host.endsWith(".localhost")) return "The callback host must be public.";
  // An IPv6 host that does not parse as an address is refused like a non-public one.
  const nonPublic = isNonPublicAddress(host) ?? host.startsWith("[");
  if (nonPublic) return "The callback host must be a public address.";
  // The URL parser drops the default port (":443" reads as ""), so any port left is another one.
  if (!options.allowLocalHttp && url.port !== "") return "Use the default https port (443).";
  return null;
}
