// Revocation (docs/digital-id.md, "Status"): a credential that names a status list (IETF Token Status
// List: the SD-JWT VC's `status.status_list`, the mdoc MSO's `status`) is checked against the list its
// issuer publishes; revoked or suspended is refused. The test issuer signs the lists (a JWT for SD-JWT
// VCs, a CWT for mdocs) and a spy on fetch serves them; one test per check that can fail.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MDL, STATUS, answer, deflate, issueMdoc, issueSdJwtVc, issueStatusList, makeIssuer, type StatusListOptions } from "../wallet";
import { verifyDigitalIdResponse } from "../../src/digital-id";
import { statusListSource } from "../../src/session/status-lists";
import { APP_ORIGIN, anchors, newRequest, root, signerUnderTestRoot, verify, refused } from "./wallet-setup";
import { serveStatusLists, statusUri, tokenResponse, type Serve } from "./status-list-server";

afterEach(() => {
  vi.restoreAllMocks();
});

const DAY_SECONDS = 86_400;

const statusSigner = async () => makeIssuer({ subject: "TEST ONLY status list signer", issuer: await root(), ca: false });

type Format = "jwt" | "cwt";

/** A credential of `format`'s kind (CWT lists for mdocs, JWT lists for SD-JWT VCs) naming `uri` at `idx`. */
async function credential(format: Format, status?: { idx: number; uri: string }) {
  if (format === "cwt") return issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true }, status });
  return issueSdJwtVc({
    signer: await makeIssuer({ subject: "TEST ONLY SD-JWT issuer", issuer: await root(), ca: false }),
    ages: { 18: true },
    status,
  });
}

/** The wallet's answer for `format`'s credential to a fresh request, and the verification of it (at `now`). */
async function present(format: Format, status: { idx: number; uri: string } | undefined, now?: Date, statusLists = statusListSource()) {
  const { requests, pending } = await newRequest(18);
  const response = await answer(requests, await credential(format, status), { origin: APP_ORIGIN });
  return verify(response, pending, 18, anchors(), now, statusLists);
}

/** Serves one list at a fresh URI; returns the URI and the requests made to it. */
async function publish(
  format: Format,
  options: Partial<StatusListOptions> = {},
  serve?: (token: string | Uint8Array<ArrayBuffer>) => Serve,
) {
  const uri = options.uri ?? statusUri();
  const token = await issueStatusList({ format, signer: await statusSigner(), uri, statuses: {}, ...options });
  const requests = serveStatusLists(new Map([[uri, serve ? serve(token) : () => tokenResponse(token)]]));
  return { uri, requests };
}

describe.each(["jwt", "cwt"] as const)("a %s status list", (format) => {
  it("VALID (0) at the credential's index approves; the whole list is fetched over https with nothing of the person", async () => {
    const { uri, requests } = await publish(format, { statuses: { 7: STATUS.INVALID, 9: STATUS.SUSPENDED } });
    expect(await present(format, { idx: 8, uri })).toStrictEqual({ outcome: "APPROVED" });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe("GET");
    expect(request!.url).toBe(uri);
    expect(request!.headers.get("accept")).toBe(`application/statuslist+${format}`);
    expect(request!.redirect).toBe("manual");
    expect([...request!.headers.keys()].sort()).toStrictEqual(["accept"]);
  });

  it("INVALID (revoked, 1) is refused", async () => {
    const { uri } = await publish(format, { statuses: { 8: STATUS.INVALID } });
    await refused(present(format, { idx: 8, uri }), /has been revoked/);
  });

  it("SUSPENDED (2) is refused, read from a 2-bit list beside valid neighbours", async () => {
    const { uri } = await publish(format, { bits: 2, statuses: { 5: STATUS.SUSPENDED, 7: 3 } });
    await refused(present(format, { idx: 5, uri }), /is suspended/);
    expect(await present(format, { idx: 6, uri })).toStrictEqual({ outcome: "APPROVED" });
    await refused(present(format, { idx: 7, uri }), /status this service does not accept/);
  });

  it("a list signed by a key outside the trust anchors is refused, and so is a forged signature", async () => {
    const stranger = await makeIssuer({ subject: "Another status signer", ca: false });
    const { uri } = await publish(format, { signer: stranger });
    await refused(present(format, { idx: 1, uri }), /does not chain to a trusted issuer/);
    const forger = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const forged = await publish(format, { signingKey: forger.privateKey });
    await refused(present(format, { idx: 1, uri: forged.uri }), /status list's signature is wrong/);
  });

  it("a list whose `sub` is not the URI the credential names is refused (another list served in its place)", async () => {
    const uri = statusUri();
    const token = await issueStatusList({ format, signer: await statusSigner(), uri: statusUri(), statuses: {} });
    serveStatusLists(new Map([[uri, () => tokenResponse(token)]]));
    await refused(present(format, { idx: 1, uri }), /status list is for another URI \(sub\)/);
  });

  it("an expired list, and one issued in the future, are refused", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await publish(format, { expiresAt: now - 60 });
    await refused(present(format, { idx: 1, uri: expired.uri }), /status list has expired/);
    const future = await publish(format, { issuedAt: now + 3600 });
    await refused(present(format, { idx: 1, uri: future.uri }), /status list is issued in the future/);
  });

  it("a token of the other format, or not typed as a status list, is refused", async () => {
    const other = await publish(format === "jwt" ? "cwt" : "jwt");
    await refused(
      present(format, { idx: 1, uri: other.uri }),
      /status list (is not a compact JWS|is not well-formed CBOR|is not a COSE_Sign1)/,
    );
    const untyped = await publish(format, { type: format === "jwt" ? "JWT" : "application/cwt" });
    await refused(present(format, { idx: 1, uri: untyped.uri }), /status list is not a status list token \((typ|type)\)/);
  });

  it("an index past the list's end is refused", async () => {
    const { uri } = await publish(format, { size: 16 });
    await refused(present(format, { idx: 16, uri }), /index lies beyond the list/);
  });

  it("a response over 256 KiB is refused, and so is an index past 4 MiB of the decompressed list", async () => {
    const big = await publish(
      format,
      {},
      (token) => () =>
        tokenResponse(
          typeof token === "string" ? token + " ".repeat(256 * 1024) : new Uint8Array([...token, ...new Uint8Array(256 * 1024)]),
        ),
    );
    await refused(present(format, { idx: 1, uri: big.uri }), /status list is larger than/);
    // 5 MiB of zeros compress to a few KiB: the signed list is small, its index lies beyond the bound.
    const deep = await publish(format, { compressedList: await deflate(new Uint8Array(5 * 1024 * 1024)) });
    await refused(present(format, { idx: 8 * 4 * 1024 * 1024 + 8, uri: deep.uri }), /beyond the 4 MiB/);
  });

  it("a fetch that fails, answers an error or a redirect, or outlasts 3 s refuses the answer", async () => {
    const failing = statusUri();
    serveStatusLists(new Map<string, Serve>([[failing, () => Promise.reject(new TypeError("connection refused"))]]));
    await refused(present(format, { idx: 1, uri: failing }), /status list could not be fetched/);
    vi.restoreAllMocks();
    const missing = await publish(format, {}, () => () => new Response("gone", { status: 404 }));
    await refused(present(format, { idx: 1, uri: missing.uri }), /status list could not be fetched \(HTTP 404\)/);
    vi.restoreAllMocks();
    const moved = await publish(
      format,
      {},
      () => () => new Response(null, { status: 302, headers: { location: "http://elsewhere.test/list" } }),
    );
    await refused(present(format, { idx: 1, uri: moved.uri }), /status list could not be fetched \(HTTP 302\)/);
    vi.restoreAllMocks();
    const slow = statusUri();
    const started = Date.now();
    serveStatusLists(
      new Map<string, Serve>([
        [slow, (request) => new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)))],
      ]),
    );
    await refused(present(format, { idx: 1, uri: slow }), /status list could not be fetched/);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it("a list served within its ttl is fetched once for two answers, and again once the ttl has passed", async () => {
    const { uri, requests } = await publish(format, { ttl: 600 });
    const statusLists = statusListSource();
    const now = Date.now();
    // The SD-JWT VC's key-binding JWT is dated now: later answers are verified at their own time.
    expect(await present(format, { idx: 1, uri }, new Date(now), statusLists)).toStrictEqual({ outcome: "APPROVED" });
    expect(await present(format, { idx: 2, uri }, new Date(now + 60_000), statusLists)).toStrictEqual({ outcome: "APPROVED" });
    expect(requests).toHaveLength(1);
    if (format === "cwt") {
      expect(await present(format, { idx: 3, uri }, new Date(now + 601_000), statusLists)).toStrictEqual({ outcome: "APPROVED" });
      expect(requests).toHaveLength(2);
    }
  });

  it("a list without ttl is fetched for every answer", async () => {
    const { uri, requests } = await publish(format);
    const statusLists = statusListSource();
    await present(format, { idx: 1, uri }, undefined, statusLists);
    await present(format, { idx: 2, uri }, undefined, statusLists);
    expect(requests).toHaveLength(2);
  });
});

describe("status references", () => {
  it("a credential without a status reference is judged as before, and nothing is fetched", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    expect(await present("jwt", undefined)).toStrictEqual({ outcome: "APPROVED" });
    expect(await present("cwt", undefined)).toStrictEqual({ outcome: "APPROVED" });
    expect(spy).not.toHaveBeenCalled();
  });

  it("a verifier given no way to reach status lists refuses a credential that names one", async () => {
    const { uri, requests } = await publish("cwt");
    const { requests: asked, pending } = await newRequest(18);
    const response = await answer(asked, await credential("cwt", { idx: 1, uri }), { origin: APP_ORIGIN });
    await refused(
      verifyDigitalIdResponse(response, { pending, ageRequired: 18, appOrigin: APP_ORIGIN, trustAnchors: anchors(), now: new Date() }),
      /cannot check the credential's status list/,
    );
    expect(requests).toHaveLength(0);
  });

  it("an http (not https) list is refused before anything is fetched", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    await refused(present("jwt", { idx: 1, uri: statusUri("http") }), /status list is not an https URL/);
    await refused(present("cwt", { idx: 1, uri: statusUri("http") }), /status list is not an https URL/);
    expect(spy).not.toHaveBeenCalled();
  });

  it("a reference that is not {idx, uri} is refused", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    await refused(present("jwt", { idx: -1, uri: statusUri() }), /status reference/);
    await refused(present("cwt", { idx: 1.5, uri: statusUri() }), /status reference/);
    await refused(present("cwt", { idx: 1, uri: 7 as unknown as string }), /status reference/);
    expect(spy).not.toHaveBeenCalled();
  });

  it("a ttl above a day is kept for a day only", async () => {
    const { uri, requests } = await publish("cwt", { ttl: 7 * DAY_SECONDS, expiresAt: Math.floor(Date.now() / 1000) + 30 * DAY_SECONDS });
    const statusLists = statusListSource();
    const now = Date.now();
    await present("cwt", { idx: 1, uri }, new Date(now), statusLists);
    await present("cwt", { idx: 1, uri }, new Date(now + DAY_SECONDS * 1000 - 60_000), statusLists);
    expect(requests).toHaveLength(1);
    await present("cwt", { idx: 1, uri }, new Date(now + DAY_SECONDS * 1000 + 60_000), statusLists);
    expect(requests).toHaveLength(2);
  });

  it("a list kept in the cache is not kept past its own exp", async () => {
    const now = Date.now();
    const { uri, requests } = await publish("cwt", { ttl: 3600, expiresAt: Math.floor(now / 1000) + 120 });
    const statusLists = statusListSource();
    await present("cwt", { idx: 1, uri }, new Date(now), statusLists);
    // Past exp the cached copy is not used; the server still serves the same (now expired) list.
    await refused(present("cwt", { idx: 1, uri }, new Date(now + 300_000), statusLists), /status list has expired/);
    expect(requests).toHaveLength(2);
  });
});
