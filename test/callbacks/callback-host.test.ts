// A callback host is resolved over DNS over HTTPS before each attempt, and a name that is or resolves to
// a non-public address is not called (docs/security-privacy.md): the attempt is recorded as refused_address and
// retried on the schedule (DNS may change back), never sent. The resolver is a stand-in behind fetch.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callbackHostProblem } from "../../src/callbacks/callback-host";
import { attemptsOf, runCallbacks, seedResolvedSession } from "../helpers/callbacks";
import { seedMerchant } from "../helpers/seed";

afterEach(() => vi.restoreAllMocks());

const DOH = "https://dns.test/dns-query";

/** A DNS-over-HTTPS stand-in: `records` maps a name to its A/AAAA answers; every other URL is a receiver answering 204. */
function network(records: Record<string, string[]>) {
  const posts: string[] = [];
  const lookups: URL[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin === new URL(DOH).origin) {
      lookups.push(url);
      expect(new Headers(init?.headers).get("accept")).toBe("application/dns-json");
      const type = url.searchParams.get("type") === "AAAA" ? 28 : 1;
      const answers = (records[url.searchParams.get("name")!] ?? []).filter((a) => (type === 28) === a.includes(":"));
      return Response.json({ Status: 0, Answer: [{ type: 5, data: "alias.example." }, ...answers.map((data) => ({ type, data }))] });
    }
    posts.push(url.href);
    return new Response(null, { status: 204 });
  });
  return { posts, lookups };
}

describe("the callback host check at delivery", () => {
  it.each([
    ["a loopback answer", ["127.0.0.1"]],
    ["a private answer beside a public one", ["93.184.216.34", "10.1.2.3"]],
    ["the cloud metadata address", ["169.254.169.254"]],
    ["a unique-local IPv6 answer", ["fd00::1"]],
  ])("refuses a name with %s: nothing is sent, the attempt is recorded as refused_address", async (_label, answers) => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant, { callbackUrl: "https://127.0.0.1.nip.io/hook" });
    const { posts, lookups } = network({ "127.0.0.1.nip.io": answers });
    await runCallbacks([message], { ...env, DNS_OVER_HTTPS_URL: DOH } as Env);
    expect(posts).toEqual([]);
    expect(lookups.map((u) => u.searchParams.get("type")).sort()).toEqual(["A", "AAAA"]);
    expect((await attemptsOf(message.webhookId)).map((a) => a.error)).toEqual(["refused_address"]);
  });

  it("sends to a name whose every answer is public", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant, { callbackUrl: "https://hooks.merchant.example/age" });
    const { posts } = network({ "hooks.merchant.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"] });
    await runCallbacks([message], { ...env, DNS_OVER_HTTPS_URL: DOH } as Env);
    expect(posts).toEqual(["https://hooks.merchant.example/age"]);
    expect((await attemptsOf(message.webhookId)).map((a) => a.statusCode)).toEqual([204]);
  });

  it("a name that does not resolve is a network error, retried; an IP literal is judged without a lookup", async () => {
    network({});
    expect(await callbackHostProblem(DOH, "https://nowhere.merchant.example/x")).toBe("network_error");
    const { lookups } = network({});
    expect(await callbackHostProblem(DOH, "https://93.184.216.34/x")).toBeNull();
    expect(await callbackHostProblem(DOH, "https://[::1]/x")).toBe("refused_address");
    expect(lookups).toEqual([]);
  });

  it("a resolver that does not answer within 5 s is a network error; an answered lookup leaves no timer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      vi.spyOn(globalThis, "fetch").mockImplementation(
        (_input, init) => new Promise((_, reject) => init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason))),
      );
      const problem = callbackHostProblem(DOH, "https://slow.merchant.example/x");
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await problem).toBe("network_error");
      network({ "hooks.merchant.example": ["93.184.216.34"] });
      expect(await callbackHostProblem(DOH, "https://hooks.merchant.example/x")).toBeNull();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("production resolves with Cloudflare's resolver by default; development does not look up", async () => {
    const { settingsOf } = await import("../../src/config/settings");
    expect(settingsOf({ ...env, ENVIRONMENT: "production" } as Env).dnsOverHttpsUrl).toBe("https://cloudflare-dns.com/dns-query");
    expect(settingsOf(env).dnsOverHttpsUrl).toBeUndefined();
  });
});
