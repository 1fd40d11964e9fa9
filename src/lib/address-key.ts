// The key an address-keyed rate limit counts under. An IPv4 client is its address; an IPv6 client is
// its /64, the smallest block an ISP hands one subscriber: keyed by the exact address, one machine could
// take 2^64 fresh addresses and never be limited.

/** The eight 16-bit groups of an IPv6 address, or null when `text` is not one. */
function ipv6Groups(text: string): number[] | null {
  let address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes its two groups.
  const v4 = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const bytes = v4.slice(2).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    address = `${v4[1]}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

/** IPv6: the /64 prefix as `2001:db8:1:2::/64`; anything else (IPv4, unknown) as given. */
export function addressKey(address: string): string {
  if (!address.includes(":")) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  // An IPv4-mapped address (::ffff:a.b.c.d) is an IPv4 client: keep all of it.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return `::ffff:${groups[6]!.toString(16)}:${groups[7]!.toString(16)}`;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
