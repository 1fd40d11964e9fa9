// SSRF: generated callback URLs whose host is a non-public address, in every spelling the URL parser
// accepts, with ports, userinfo, paths and queries, are all refused; generated public ones are accepted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callbackUrlProblem } from "../../src/domain/merchant-callbacks/callback-url";

const production = { allowLocalHttp: false };
const RUNS = 200;
const SEED = 0x55_7f;

// IPv4 special-purpose ranges that are not globally reachable (IANA registry, RFC 6890 and successors).
const NON_PUBLIC_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

const toUint = (dotted: string) => dotted.split(".").reduce((n, part) => n * 256 + Number(part), 0);
const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

const nonPublicV4 = fc
  .constantFrom(...NON_PUBLIC_V4)
  .chain(([network, prefix]) => fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => (toUint(network) + offset) >>> 0));

/** The spellings of one IPv4 address that WHATWG URL parsing turns back into it. */
const v4Spelling = (n: number) =>
  fc
    .constantFrom<(n: number) => string>(
      (x) => octets(x).join("."),
      (x) => String(x), // one decimal number
      (x) => `0x${x.toString(16)}`, // one hex number
      (x) => `0${x.toString(8)}`, // one octal number
      (x) =>
        octets(x)
          .map((o) => `0x${o.toString(16)}`)
          .join("."),
      (x) =>
        octets(x)
          .map((o) => `0${o.toString(8)}`)
          .join("."),
      (x) => `${octets(x)[0]}.${(x & 0xffffff) >>> 0}`, // a.bcd
      (x) => `${octets(x)[0]}.${octets(x)[1]}.${x & 0xffff}`, // a.b.cd
      (x) => `${octets(x).join(".")}.`, // trailing dot
      (x) => `[::ffff:${octets(x).join(".")}]`, // IPv4-mapped IPv6
      (x) => `[::ffff:${(x >>> 16).toString(16)}:${(x & 0xffff).toString(16)}]`,
      (x) => `[::${octets(x).join(".")}]`, // IPv4-compatible (deprecated)
      (x) => `[::ffff:0:${octets(x).join(".")}]`, // IPv4-translated (SIIT)
      (x) => `[64:ff9b::${octets(x).join(".")}]`, // NAT64
      (x) => `[2002:${(x >>> 16).toString(16)}:${(x & 0xffff).toString(16)}::1]`, // 6to4
    )
    .map((spell) => spell(n));

const hex16 = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const groups = (count: number) => fc.array(hex16, { minLength: count, maxLength: count });

// IPv6 special-purpose blocks that are not globally reachable, with generated interface bits.
const nonPublicV6 = fc.oneof(
  fc.constantFrom("[::1]", "[::]", "[0:0:0:0:0:0:0:1]", "[0000::0001]"),
  groups(7).map((g) => `[fe80:${g.join(":")}]`), // link-local
  fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), groups(7)).map(([first, g]) => `[${first.toString(16)}:${g.join(":")}]`),
  fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), groups(7)).map(([first, g]) => `[${first.toString(16)}:${g.join(":")}]`), // unique local
  fc.tuple(fc.integer({ min: 0xfec0, max: 0xfeff }), groups(7)).map(([first, g]) => `[${first.toString(16)}:${g.join(":")}]`), // site-local
  fc.tuple(fc.integer({ min: 0xff00, max: 0xffff }), groups(7)).map(([first, g]) => `[${first.toString(16)}:${g.join(":")}]`), // multicast
  groups(6).map((g) => `[2001:db8:${g.join(":")}]`), // documentation
  fc.tuple(fc.integer({ min: 0, max: 0xfff }), groups(6)).map(([second, g]) => `[3fff:${second.toString(16)}:${g.join(":")}]`), // documentation (RFC 9637)
  groups(4).map((g) => `[100::${g.join(":")}]`), // discard-only
  fc.tuple(fc.integer({ min: 0, max: 0x1ff }), groups(6)).map(([second, g]) => `[2001:${second.toString(16)}:${g.join(":")}]`), // IETF protocol assignments, Teredo
  groups(7).map((g) => `[2002:${g.join(":")}]`), // 6to4
  groups(5).map((g) => `[64:ff9b:1:${g.join(":")}]`), // local-use NAT64
  groups(7).map((g) => `[5f00:${g.join(":")}]`), // SRv6 SIDs
);

const localNames = fc.constantFrom("localhost", "LOCALHOST", "localhost.", "api.localhost", "a.b.localhost.", "LocalHost.");

const decorate = (host: string) =>
  fc
    .tuple(
      fc.constantFrom("https://", "HTTPS://", "https:/", "https:\\\\"),
      fc.option(fc.constantFrom(":443", ":8443", ":1", ":65535", ":0443"), { nil: "" }),
      fc.webPath(),
      fc.option(
        fc.webQueryParameters().map((q) => `?${q}`),
        { nil: "" },
      ),
      fc.option(
        fc.webFragments().map((f) => `#${f}`),
        { nil: "" },
      ),
    )
    .map(([scheme, port, path, query, fragment]) => `${scheme}${host}${port ?? ""}${path}${query ?? ""}${fragment ?? ""}`);

// Thousands of generated cases a property: CPU-bound, so a loaded machine needs more than the default 5 s.
describe("callback URL SSRF properties", { timeout: 60_000 }, () => {
  it("refuses every non-public IPv4 address in every spelling", () => {
    fc.assert(
      fc.property(nonPublicV4.chain(v4Spelling).chain(decorate), (url) => {
        expect(callbackUrlProblem(url, production), url).toEqual(expect.any(String));
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });

  it("refuses every non-public IPv6 block, compressed or not", () => {
    fc.assert(
      fc.property(nonPublicV6.chain(decorate), (url) => {
        expect(callbackUrlProblem(url, production), url).toEqual(expect.any(String));
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });

  it("refuses localhost names, with or without a trailing dot", () => {
    fc.assert(
      fc.property(localNames.chain(decorate), (url) => {
        expect(callbackUrlProblem(url, production), url).toEqual(expect.any(String));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("refuses any URL that carries credentials, whatever the host", () => {
    const userinfo = fc
      .tuple(fc.webSegment(), fc.option(fc.webSegment(), { nil: undefined }))
      .map(([u, p]) => (p === undefined ? `${u || "u"}@` : `${u || "u"}:${p}@`));
    fc.assert(
      fc.property(
        fc
          .tuple(userinfo, fc.constantFrom("merchant.example.com", "8.8.8.8", "[2606:4700::1111]"))
          .chain(([info, host]) => decorate(`${info}${host}`)),
        (url) => {
          expect(callbackUrlProblem(url, production), url).toEqual(expect.any(String));
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  const publicHost = fc.oneof(
    fc.domain().filter((d) => !/(^|\.)localhost$/.test(d) && !/^[\d.]+$/.test(d)),
    fc.constantFrom("8.8.8.8", "1.1.1.1", "93.184.216.34", "[2606:4700::1111]", "[2a00:1450:4001::200e]"),
  );

  it("accepts public https hosts on the default port, with any path and query", () => {
    fc.assert(
      fc.property(
        publicHost.chain((host) =>
          fc.tuple(fc.constantFrom("", ":443", ":0443"), fc.webPath()).map(([port, path]) => `https://${host}${port}${path}`),
        ),
        (url) => {
          fc.pre(url.length <= 2048);
          expect(callbackUrlProblem(url, production), url).toBeNull();
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("refuses every port but 443 in production, and allows any in development", () => {
    const otherPort = fc.integer({ min: 0, max: 65_535 }).filter((port) => port !== 443);
    fc.assert(
      fc.property(
        fc.tuple(publicHost, otherPort, fc.webPath()).map(([host, port, path]) => `https://${host}:${port}${path}`),
        (url) => {
          fc.pre(url.length <= 2048);
          expect(callbackUrlProblem(url, production), url).toBe("Use the default https port (443).");
          expect(callbackUrlProblem(url, { allowLocalHttp: true }), url).toBeNull();
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // Junk, judged without the product: whatever the platform's URL parser cannot read as an absolute
  // https URL must be refused with a reason (and nothing may throw).
  const isHttpsUrl = (raw: string) => URL.canParse(raw) && new URL(raw).protocol === "https:";

  it("refuses generated junk that is not an absolute https URL, without throwing", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.webPath(), fc.webSegment()), (raw) => {
        fc.pre(!isHttpsUrl(raw));
        expect(callbackUrlProblem(raw, production), JSON.stringify(raw)).toBe("Use an absolute https:// URL.");
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("refuses every other scheme, and plain http even for a public host", () => {
    const otherScheme = fc.webUrl({
      validSchemes: ["http", "ftp", "ws", "wss", "file", "data", "javascript", "gopher"],
      withQueryParameters: true,
      withFragments: true,
    });
    fc.assert(
      fc.property(otherScheme, (url) => {
        expect(callbackUrlProblem(url, production), url).toBe("Use an absolute https:// URL.");
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("refuses an otherwise acceptable URL over 2048 characters, and accepts one of exactly 2048", () => {
    const base = "https://merchant.example.com/";
    fc.assert(
      fc.property(fc.integer({ min: 2049, max: 8192 }), (length) => {
        const url = base + "a".repeat(length - base.length);
        expect(callbackUrlProblem(url, production)).toBe("Use at most 2048 characters.");
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(callbackUrlProblem(base + "a".repeat(2048 - base.length), production)).toBeNull();
  });
});
