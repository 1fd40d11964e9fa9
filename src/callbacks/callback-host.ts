// Before each attempt, the callback URL's host name is resolved over DNS over HTTPS (RFC 8484's JSON
// form, application/dns-json) and refused when any answer is not a public address (src/lib/ip-address.ts):
// a name such as 127.0.0.1.nip.io passes the URL rules at open, and a name can be pointed at a private
// address later (DNS rebinding), so the check is made at delivery, every time (docs/security-privacy.md). Development runs
// without it unless DNS_OVER_HTTPS_URL is set: its receivers are on localhost, and it has no network.
import { withDeadline } from "../lib/deadline";
import { isNonPublicAddress } from "../lib/ip-address";

/** How long one lookup may take: far below the delivery's own 15 s. */
const LOOKUP_TIMEOUT_MS = 5_000;
const RECORD_TYPES = { A: 1, AAAA: 28 } as const;

type DohAnswer = { Status?: number; Answer?: { type: number; data: string }[] };

async function lookup(dohUrl: string, host: string, type: keyof typeof RECORD_TYPES): Promise<string[]> {
  const url = new URL(dohUrl);
  url.searchParams.set("name", host);
  url.searchParams.set("type", type);
  const answer = await withDeadline(LOOKUP_TIMEOUT_MS, async (signal) => {
    const response = await fetch(url, { headers: { accept: "application/dns-json" }, signal });
    if (!response.ok) throw new Error(`DNS over HTTPS answered ${response.status}`);
    return (await response.json()) as DohAnswer;
  });
  return (answer.Answer ?? []).filter((record) => record.type === RECORD_TYPES[type]).map((record) => record.data);
}

/**
 * Why the host may not be called now: "refused_address" when it is or resolves to a non-public
 * address, "network_error" when it does not resolve (or the lookup fails); null when every address is public.
 */
export async function callbackHostProblem(dohUrl: string, callbackUrl: string): Promise<"refused_address" | "network_error" | null> {
  const host = new URL(callbackUrl).hostname.replace(/\.+$/, "");
  const literal = isNonPublicAddress(host);
  if (literal !== null) return literal ? "refused_address" : null;
  let addresses: string[];
  try {
    addresses = (await Promise.all([lookup(dohUrl, host, "A"), lookup(dohUrl, host, "AAAA")])).flat();
  } catch {
    return "network_error";
  }
  if (addresses.length === 0) return "network_error";
  return addresses.some((address) => isNonPublicAddress(address) !== false) ? "refused_address" : null;
}
