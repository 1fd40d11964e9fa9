// Every route reachable with a session id and no account counts the per-address limit of the session
// link (docs/limits.md), before anything reaches a session's Durable Object: preview, request, decline,
// the digital-ID request and response, the anonymous complete, the page's test outcome, and the /verify
// page's own read of the session. Once an address is past the limit, a made-up id on any of them is 429
// and the sessions' namespace is not touched at all: no object id is derived, no object is created.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { newId } from "../../src/lib/ids";
import { buildRequest, call, readResponse } from "../helpers/http";

const PER_MINUTE = 120;
const NONCE = "x".repeat(43);

/** The sessions' namespace, counting every use of it (an id derived, a stub made, a stub called). */
function countingSessions(): { sessions: DurableObjectNamespace; uses: string[] } {
  const uses: string[] = [];
  const sessions = new Proxy(env.SESSIONS, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        uses.push(String(prop));
        return Reflect.apply(value, target, args);
      };
    },
  });
  return { sessions, uses };
}

/** Each no-account route with a made-up session id, as a person's page (or a flood) would call it. */
const ROUTES: { name: string; method: string; path: (id: string) => string; headers?: Record<string, string>; body?: unknown }[] = [
  { name: "preview", method: "GET", path: (id) => `/api/age-verification/session/${id}/preview` },
  { name: "request", method: "GET", path: (id) => `/api/age-verification/session/${id}/request` },
  { name: "decline", method: "POST", path: (id) => `/api/age-verification/session/${id}/decline` },
  { name: "digital-id request", method: "POST", path: (id) => `/api/age-verification/session/${id}/digital-id/request` },
  {
    name: "digital-id response",
    method: "POST",
    path: (id) => `/api/age-verification/session/${id}/digital-id/response`,
    body: { protocol: "org-iso-mdoc", data: { response: "AAAA" } },
  },
  {
    name: "anonymous complete with a token",
    method: "POST",
    path: (id) => `/api/age-verification/session/${id}/complete`,
    body: { nonce: NONCE, consent: true, age_token: "AAAA" },
  },
  {
    name: "anonymous complete without a token",
    method: "POST",
    path: (id) => `/api/age-verification/session/${id}/complete`,
    body: { nonce: NONCE, consent: true },
  },
  {
    name: "test outcome",
    method: "POST",
    path: (id) => `/api/age-verification/session/${id}/test-outcome`,
    body: { nonce: NONCE, outcome: "APPROVED" },
  },
  { name: "the /verify page", method: "GET", path: (id) => `/verify?session_id=${id}&nonce=${NONCE}` },
];

/** One call through the app with the counting namespace, from `ip`. */
async function throughCountingApp(route: (typeof ROUTES)[number], ip: string) {
  const { sessions, uses } = countingSessions();
  const context = createExecutionContext();
  const request = buildRequest(route.method, route.path(newId("ses")), {
    headers: { "cf-connecting-ip": ip, "x-session-nonce": NONCE, ...route.headers },
    body: route.body,
  });
  const response = await readResponse(await createApp().fetch(request, { ...env, SESSIONS: sessions } as Env, context));
  await waitOnExecutionContext(context);
  return { response, uses };
}

/** Spends `ip`'s minute on previews of made-up ids, until the limiter answers 429. */
async function exhaust(ip: string): Promise<void> {
  for (let sent = 0; sent <= 2 * PER_MINUTE + 40; sent += 20) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call("GET", `/api/age-verification/session/${newId("ses")}/preview`, {
          headers: { "x-session-nonce": NONCE, "cf-connecting-ip": ip },
        }),
      ),
    );
    if (answers.some(({ status }) => status === 429)) return;
  }
  throw new Error("the per-address limit never answered 429");
}

describe("the session link's per-address limit covers every route that needs no account", { timeout: 300_000 }, () => {
  it("below the limit, each route does reach the sessions' namespace (so the count below means something)", async () => {
    for (const route of ROUTES) {
      // These two are refused before any session is read: /request needs an account, and a made-up token
      // fails its own check (422) first.
      if (route.name === "request" || route.name === "anonymous complete with a token") continue;
      const { response, uses } = await throughCountingApp(route, `192.0.2.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID()}`);
      expect(response.status, route.name).not.toBe(429);
      expect(uses.length, route.name).toBeGreaterThan(0);
    }
  });

  it("past the limit, a made-up id on each route is 429 with Retry-After and no Durable Object is reached", async () => {
    const ip = `192.0.2.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID()}`;
    await exhaust(ip);
    for (const route of ROUTES) {
      // Again before each route (one batch, all refused, while the window lasts): a window that ended
      // meanwhile would let the call through for a reason that is not the route's.
      await exhaust(ip);
      const { response, uses } = await throughCountingApp(route, ip);
      expect(response.status, `${route.name}: ${response.text.slice(0, 200)}`).toBe(429);
      expect(response.headers.get("retry-after"), route.name).toBe("60");
      expect(uses, route.name).toStrictEqual([]);
    }
    // A signed-in complete is limited per address too: it reaches the session (the double-blind check reads
    // it before any token is checked), so a made-up token would otherwise open a way around the limit.
    await exhaust(ip);
    const signedIn = await throughCountingApp(
      {
        name: "signed-in complete",
        method: "POST",
        path: (id) => `/api/age-verification/session/${id}/complete`,
        headers: { authorization: "Bearer not-a-token" },
        body: { nonce: NONCE, consent: true },
      },
      ip,
    );
    expect(signedIn.response.status).toBe(429);
    expect(signedIn.uses).toStrictEqual([]);
  });
});
