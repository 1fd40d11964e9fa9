// IP address literals and the ranges that are not publicly routable: private, loopback, link-local,
// unique-local, cloud metadata, documentation and the other special-purpose blocks (IANA registries,
// RFC 6890 and successors). Used for a callback URL's host (src/domain/merchant-callbacks/callback-url.ts)
// and for the addresses its name resolves to at delivery (src/callbacks/callback-host.ts).

type Cidr4 = [number, number]; // [network as uint32, prefix length]

const ipv4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const NON_PUBLIC_V4: Cidr4[] = [
  [ipv4(0, 0, 0, 0), 8], // "this" network
  [ipv4(10, 0, 0, 0), 8], // private
  [ipv4(100, 64, 0, 0), 10], // carrier-grade NAT
  [ipv4(127, 0, 0, 0), 8], // loopback
  [ipv4(169, 254, 0, 0), 16], // link-local, cloud metadata
  [ipv4(172, 16, 0, 0), 12], // private
  [ipv4(192, 0, 0, 0), 24], // IETF protocol assignments
  [ipv4(192, 0, 2, 0), 24], // documentation
  [ipv4(192, 88, 99, 0), 24], // 6to4 relay anycast (deprecated)
  [ipv4(192, 168, 0, 0), 16], // private
  [ipv4(198, 18, 0, 0), 15], // benchmarking
  [ipv4(198, 51, 100, 0), 24], // documentation
  [ipv4(203, 0, 113, 0), 24], // documentation
  [ipv4(224, 0, 0, 0), 4], // multicast
  [ipv4(240, 0, 0, 0), 4], // reserved, broadcast
];

function parseDottedQuad(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  return ipv4(a, b, c, d);
}

const inV4Ranges = (address: number) =>
  NON_PUBLIC_V4.some(([network, prefix]) => (prefix === 0 ? true : address >>> (32 - prefix) === network >>> (32 - prefix)));

/** Expands an IPv6 literal (without brackets) to eight 16-bit groups; null if it is not one. */
function parseIpv6(host: string): number[] | null {
  let text = host.toLowerCase();
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const v4 = parseDottedQuad(v4Tail[1]!);
    if (v4 === null) return null;
    text = text.slice(0, -v4Tail[1]!.length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

function ipv6IsNonPublic(groups: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const embeddedV4 = ((g6 << 16) | g7) >>> 0;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    if (g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true; // :: and ::1
    if (g5 === 0xffff || g5 === 0) return inV4Ranges(embeddedV4); // IPv4-mapped and -compatible
  }
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return inV4Ranges(embeddedV4); // IPv4-translated ::ffff:0:0/96
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return inV4Ranges(embeddedV4); // NAT64
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // local-use NAT64 64:ff9b:1::/48
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only 100::/64
  // 2001::/23 holds Teredo (which embeds an IPv4 address) and other protocol assignments, none a web host;
  // 6to4 (2002::/16, deprecated) embeds any IPv4 address too: refused whole rather than decoded.
  if (g0 === 0x2001 && g1 < 0x200) return true;
  if (g0 === 0x2002) return true;
  if (g0 === 0x3fff && g1 < 0x1000) return true; // documentation 3fff::/20
  if (g0 === 0x5f00) return true; // SRv6 SIDs 5f00::/16
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // documentation
  return false;
}

/**
 * Whether an address literal is non-public: true or false for a dotted quad or an IPv6 literal (with or
 * without brackets), null when the text is not an address (a host name).
 */
export function isNonPublicAddress(text: string): boolean | null {
  const v4 = parseDottedQuad(text);
  if (v4 !== null) return inV4Ranges(v4);
  const groups = parseIpv6(text.startsWith("[") ? text.slice(1, -1) : text);
  return groups ? ipv6IsNonPublic(groups) : null;
}
