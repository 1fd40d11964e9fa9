// Revocation, rule by rule (docs/digital-id.md, "Status"): each check of a status reference, of a Status
// List Token and of reading one entry, at its edge, with the refusal it gives. The tokens are signed here
// with any claim the test needs (test/wallet's issuer signs only well-formed lists), and the verifier
// reaches them through a port of the test's own, which records what it fetched and what it kept.
import { describe, expect, it } from "vitest";
import { deflate, makeIssuer, packStatuses, STATUS, type Issuer } from "../wallet";
import { base64url, encode, Tag } from "../wallet/cbor";
import { statusAt, MAX_INFLATED_BYTES } from "../../src/digital-id/status-bits";
import { checkStatuses, MAX_TOKEN_BYTES, type CachedStatusList } from "../../src/digital-id/status-list";
import { verifyStatusListToken } from "../../src/digital-id/status-list-token";
import { cborStatusReference, jsonStatusReference, type StatusReference } from "../../src/digital-id/status-reference";
import { anchors, root, refused } from "./wallet-setup";

/** Whole seconds, so that a claim can sit exactly at the verifier's clock. */
const T = Math.floor(Date.now() / 1000);
const NOW = new Date(T * 1000);
const URI = "https://status.issuer.test/lists/rules";

let trustedPromise: Promise<Issuer> | undefined;
const trusted = async () => (trustedPromise ??= makeIssuer({ subject: "TEST ONLY status list signer", issuer: await root(), ca: false }));

const utf8 = (text: string) => new Uint8Array(new TextEncoder().encode(text));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A list of 1,000 one-bit entries, `revoked` set to INVALID. */
const list = async (revoked: number[] = []) =>
  deflate(packStatuses(Object.fromEntries(revoked.map((index) => [index, STATUS.INVALID])), 1000, 1));

/** JSON with Infinity written as 1e999 (JSON.parse reads it back as Infinity; JSON.stringify cannot write it). */
const json = (value: unknown) => JSON.stringify(value, (_, v) => (v === Infinity ? "__INFINITY__" : v)).replace(/"__INFINITY__"/g, "1e999");

/** A statuslist+jwt over the default claims with `claims` merged in (undefined leaves a claim out). */
async function jwtList(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  const issuer = await trusted();
  const payload = { sub: URI, iat: T - 3600, exp: T + 86_400, status_list: { bits: 1, lst: base64url(await list([8])) }, ...claims };
  const head = { alg: "ES256", typ: "statuslist+jwt", x5c: [toBase64(issuer.certificate)], ...header };
  const input = `${base64url(utf8(json(head)))}.${base64url(utf8(json(payload)))}`;
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, issuer.privateKey, utf8(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

type CwtOptions = { claims?: Record<number, unknown>; payload?: unknown; unprotected?: Map<number, unknown>; tag?: number };

/** A statuslist+cwt over the default claims with `claims` merged in (undefined leaves a claim out). */
async function cwtList(options: CwtOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const issuer = await trusted();
  const merged: Record<number, unknown> = {
    2: URI,
    6: T - 3600,
    4: T + 86_400,
    65533: new Map<string, unknown>([
      ["bits", 1],
      ["lst", await list([8])],
    ]),
    ...options.claims,
  };
  const claims = new Map(
    Object.entries(merged)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [Number(key), value]),
  );
  const protectedBytes = encode(
    new Map<number, unknown>([
      [1, -7],
      [16, "application/statuslist+cwt"],
    ]),
  );
  const payload = encode(options.payload ?? claims);
  const toBeSigned = encode(["Signature1", protectedBytes, new Uint8Array(0), payload]);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, issuer.privateKey, toBeSigned));
  const sign1 = [protectedBytes, options.unprotected ?? new Map([[33, issuer.certificate]]), payload, signature];
  return encode(options.tag === undefined ? sign1 : new Tag(sign1, options.tag));
}

const reference = (format: "jwt" | "cwt", idx = 0, uri = URI): StatusReference => ({ uri, idx, format });

const verifyJwt = (token: string) => verifyStatusListToken(utf8(token), reference("jwt"), anchors(), NOW);
const verifyCwt = (token: Uint8Array) => verifyStatusListToken(token, reference("cwt"), anchors(), NOW);

describe("a status reference", () => {
  const valid = { status_list: { idx: 0, uri: URI } };

  it("is read from an SD-JWT VC's JSON claim and from an mdoc MSO's CBOR map; none is null", () => {
    expect(jsonStatusReference(valid)).toStrictEqual({ uri: URI, idx: 0, format: "jwt" });
    const map = new Map([
      [
        "status_list",
        new Map<string, string | number>([
          ["idx", 3],
          ["uri", URI],
        ]),
      ],
    ]);
    expect(cborStatusReference(map)).toStrictEqual({ uri: URI, idx: 3, format: "cwt" });
    expect(jsonStatusReference(undefined)).toBeNull();
    expect(cborStatusReference(undefined)).toBeNull();
  });

  it("that is not a status list {idx, uri} is refused: null, text, a fraction, a negative or textual index, an empty or over-long URI", () => {
    const message = "The digital ID did not verify: the credential's status reference is not a status list {idx, uri}.";
    const bad: unknown[] = [
      null,
      "revoked",
      { status_list: null },
      { status_list: { idx: 1.5, uri: URI } },
      { status_list: { idx: -1, uri: URI } },
      { status_list: { idx: "1", uri: URI } },
      { status_list: { idx: 1, uri: "" } },
      { status_list: { idx: 1, uri: `https://status.issuer.test/${"a".repeat(2049 - 27)}` } },
    ];
    expect((bad.at(-1) as typeof valid).status_list.uri).toHaveLength(2049);
    for (const status of bad) expect(() => jsonStatusReference(status), JSON.stringify(status)).toThrow(message);
    const longest = `https://status.issuer.test/${"a".repeat(2048 - 27)}`;
    expect(jsonStatusReference({ status_list: { idx: 1, uri: longest } })).toStrictEqual({ uri: longest, idx: 1, format: "jwt" });
  });
});

describe("reading one entry", () => {
  it("reads entries far into a list that inflates in many chunks, and refuses an index past its end", async () => {
    const size = 8 * 1024 * 1024;
    const statuses = { 3: 1, [size / 2 + 5]: 2, [size - 1]: 3 };
    const lst = await deflate(packStatuses(statuses, size, 2));
    expect(await statusAt(lst, 2, 3)).toBe(1);
    expect(await statusAt(lst, 2, size / 2 + 5)).toBe(2);
    expect(await statusAt(lst, 2, size / 2 + 6)).toBe(0);
    expect(await statusAt(lst, 2, size - 1)).toBe(3);
    await refused(statusAt(lst, 2, size), "the credential's index lies beyond the list's end.");
  });

  it("reads the last entry of the first 4 MiB and refuses the next, however long the list", async () => {
    const bytes = new Uint8Array(MAX_INFLATED_BYTES + 16);
    bytes[MAX_INFLATED_BYTES - 1] = 0x80;
    bytes.fill(0xff, MAX_INFLATED_BYTES);
    const lst = await deflate(bytes);
    expect(await statusAt(lst, 1, 8 * MAX_INFLATED_BYTES - 1)).toBe(1);
    await refused(
      statusAt(lst, 1, 8 * MAX_INFLATED_BYTES),
      "the credential's index lies beyond the 4 MiB of a status list this service reads.",
    );
  });

  it("refuses a list that is not zlib-compressed", async () => {
    await refused(statusAt(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), 1, 0), "the status list is not zlib-compressed.");
  });
});

describe("a Status List Token's claims", () => {
  it("a JWT list is accepted with a line break after it, without exp, and with the ttl and exp it carries", async () => {
    const token = await jwtList({ ttl: 600 });
    expect(await verifyJwt(`${token}\r\n`)).toStrictEqual({ bits: 1, lst: await list([8]), exp: T + 86_400, ttl: 600 });
    expect(await verifyJwt(await jwtList({ exp: undefined }))).toMatchObject({ exp: undefined, ttl: undefined });
  });

  it("iat must be a finite time, at most 300 s ahead of the verifier's clock", async () => {
    for (const iat of [undefined, "yesterday", Infinity, -Infinity])
      await refused(verifyJwt(await jwtList({ iat })), "the status list has no issue time (iat).");
    expect(await verifyJwt(await jwtList({ iat: T + 300 }))).toMatchObject({ bits: 1 });
    expect(await verifyJwt(await jwtList({ iat: T + 100 }))).toMatchObject({ bits: 1 });
    await refused(verifyJwt(await jwtList({ iat: T + 301 })), "the status list is issued in the future (iat).");
  });

  it("exp, when present, must be a finite time not yet reached", async () => {
    for (const exp of ["tomorrow", null, Infinity])
      await refused(verifyJwt(await jwtList({ exp })), "the status list's exp is not a time.");
    await refused(verifyJwt(await jwtList({ exp: T })), "the status list has expired (exp).");
    expect(await verifyJwt(await jwtList({ exp: T + 1 }))).toMatchObject({ exp: T + 1 });
  });

  it("ttl, when present, must be a positive finite number", async () => {
    for (const ttl of [0, -60, "600", Infinity])
      await refused(verifyJwt(await jwtList({ ttl })), "the status list's ttl is not a positive number.");
    expect(await verifyJwt(await jwtList({ ttl: 1 }))).toMatchObject({ ttl: 1 });
  });

  it("bits must be 1, 2, 4 or 8, in a status_list object", async () => {
    const lst = base64url(await list());
    for (const statusList of [{ bits: 3, lst }, { lst }, null, undefined])
      await refused(verifyJwt(await jwtList({ status_list: statusList })), "the status list's bits is not 1, 2, 4 or 8.");
    await refused(
      verifyCwt(
        await cwtList({
          claims: {
            65533: new Map<string, unknown>([
              ["bits", 3],
              ["lst", await list()],
            ]),
          },
        }),
      ),
      "the status list's bits is not 1, 2, 4 or 8.",
    );
  });

  it("a JWT list's lst must be unpadded base64url", async () => {
    for (const lst of [undefined, 12345, "ab+/", "+AAA", "AAA+", "AAA=", "AAAAA"])
      await refused(verifyJwt(await jwtList({ status_list: { bits: 1, lst } })), "the status list's lst is not base64url.");
  });

  it("a JWT list must carry its signer's certificate as base64 text in x5c", async () => {
    const certificate = toBase64((await trusted()).certificate);
    for (const x5c of [undefined, certificate, [], [certificate, 1234]])
      await refused(verifyJwt(await jwtList({}, { x5c })), "the status list carries no certificate (x5c).");
  });

  it("a CWT list's claims, status_list, sub and lst must be of their CBOR types", async () => {
    await refused(verifyCwt(await cwtList({ payload: [1, 2] })), "the status list's claims is not a map.");
    await refused(verifyCwt(await cwtList({ claims: { 65533: undefined } })), "the status list's status_list is not a map.");
    await refused(verifyCwt(await cwtList({ claims: { 2: 7 } })), "the status list's sub is not text.");
    const lst = base64url(await list());
    await refused(
      verifyCwt(
        await cwtList({
          claims: {
            65533: new Map<string, unknown>([
              ["bits", 1],
              ["lst", lst],
            ]),
          },
        }),
      ),
      "the status list's lst is not a byte string.",
    );
  });

  it("a CWT list may come under the CWT tag (61), not under another tag, and must carry x5chain", async () => {
    expect(await verifyCwt(await cwtList({ tag: 61 }))).toMatchObject({ bits: 1, lst: await list([8]) });
    await refused(verifyCwt(await cwtList({ tag: 99 })), "the status list is not an array.");
    await refused(verifyCwt(await cwtList({ unprotected: new Map() })), "the status list carries no certificate (x5chain).");
  });
});

/** A port that answers every fetch with `serve()`, reads `cached` and records what the verifier fetched and kept. */
function port(serve: () => Response | Promise<Response>, cached?: CachedStatusList) {
  const fetched: string[] = [];
  const kept: CachedStatusList[] = [];
  return {
    fetched,
    kept,
    context: {
      trustAnchors: anchors(),
      now: NOW,
      statusLists: {
        fetch: async (url: string) => {
          fetched.push(url);
          return serve();
        },
        read: async () => cached,
        keep: async (_: string, entry: CachedStatusList) => {
          kept.push(entry);
        },
      },
    },
  };
}

const served = (body: BodyInit | null, headers: Record<string, string> = {}) => new Response(body, { status: 200, headers });

describe("checking a credential's status", () => {
  it("a list URI that is not a URL, or carries a user name or password, is refused before anything is fetched", async () => {
    const token = await jwtList();
    for (const uri of ["not a url", "https://user@status.issuer.test/list", "https://:secret@status.issuer.test/list"]) {
      const { fetched, context } = port(() => served(token));
      await refused(checkStatuses([reference("jwt", 1, uri)], context), "the credential's status list is not an https URL.");
      expect(fetched).toStrictEqual([]);
    }
  });

  it("every distinct reference is checked: a revoked one before a valid one on the same list refuses", async () => {
    const token = await jwtList();
    const { fetched, context } = port(() => served(token));
    await refused(checkStatuses([reference("jwt", 8), reference("jwt", 1)], context), "the credential has been revoked (status list).");
    expect(fetched).toStrictEqual([URI]);
  });

  it("a response announcing more than 256 KiB is refused unread; one of exactly 256 KiB is read", async () => {
    const token = await jwtList();
    for (const body of [token, null]) {
      const { context } = port(() => served(body, { "content-length": String(MAX_TOKEN_BYTES + 1) }));
      await refused(checkStatuses([reference("jwt", 1)], context), "the status list is larger than 256 KiB.");
    }
    const padded = token + " ".repeat(MAX_TOKEN_BYTES - token.length);
    const { context } = port(() => served(padded, { "content-length": String(MAX_TOKEN_BYTES) }));
    await expect(checkStatuses([reference("jwt", 1)], context)).resolves.toBeUndefined();
  });

  it("a response without a body is an empty token, refused as such", async () => {
    const { context } = port(() => served(null));
    await refused(checkStatuses([reference("jwt", 1)], context), "the status list is not a compact JWS.");
  });

  it("a verified list is kept for its ttl but never past its exp, and not at all without a ttl", async () => {
    const cases = [
      { claims: { ttl: 600, exp: T + 120 }, freshUntil: (T + 120) * 1000 },
      { claims: { ttl: 600, exp: undefined }, freshUntil: (T + 600) * 1000 },
      { claims: { ttl: 600 }, freshUntil: (T + 600) * 1000 },
    ];
    for (const { claims, freshUntil } of cases) {
      const token = await jwtList(claims);
      const { kept, context } = port(() => served(token));
      await checkStatuses([reference("jwt", 1)], context);
      expect(kept).toStrictEqual([{ token: utf8(token), freshUntil }]);
    }
    const { kept, context } = port(async () => served(await jwtList()));
    await checkStatuses([reference("jwt", 1)], context);
    expect(kept).toStrictEqual([]);
  });

  it("a kept list is used until the moment it is fresh until, and fetched again from then on", async () => {
    const token = utf8(await jwtList());
    const fresh = port(() => served(token), { token, freshUntil: NOW.getTime() + 1 });
    await checkStatuses([reference("jwt", 1)], fresh.context);
    expect(fresh.fetched).toStrictEqual([]);
    const stale = port(() => served(token), { token, freshUntil: NOW.getTime() });
    await checkStatuses([reference("jwt", 1)], stale.context);
    expect(stale.fetched).toStrictEqual([URI]);
  });
});
