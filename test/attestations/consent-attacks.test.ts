// Attacks on the consent page a wallet opens (GET and POST /authorize) and on the approval its script
// calls (POST /api/attestations/authorizations), from outside, through the routes: the page must name
// the origin the code is actually delivered to, whatever the redirect_uri's shape; nothing of the
// request may become markup; the refusal page is as guarded as the page; the passkey confirmation
// takes only a fresh "confirm" assertion by the account's own passkey; the daily count is one count
// for both grants (docs/attestations.md).
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attestationGrants } from "../../src/db/schema";
import { SoftwareAuthenticator } from "../helpers/authenticator";
import { call, expectError } from "../helpers/http";
import { callWith } from "../helpers/kyc";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { verifiedAdult } from "./helpers";
import { toWorker } from "./standard-wallet";
import { ISSUER_URL } from "./wire";

const codes = async () =>
  (await drizzle(env.DB).select({ n: sql<number>`count(*)` }).from(attestationGrants).where(eq(attestationGrants.kind, "code")))[0]!.n;

const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const request = (overrides: Record<string, string> = {}) => ({
  response_type: "code",
  scope: "proof_of_age",
  client_id: "wallet",
  redirect_uri: "https://wallet.example.org/cb",
  code_challenge: CHALLENGE,
  code_challenge_method: "S256",
  state: "st",
  ...overrides,
});
const pageFor = (params: Record<string, string>, init?: RequestInit) =>
  toWorker(`${ISSUER_URL}/authorize?${new URLSearchParams(params)}`, init);
const signInOnPage = (params: Record<string, string>, form: Record<string, string>) =>
  toWorker(`${ISSUER_URL}/authorize?${new URLSearchParams(params)}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });

const fromHtml = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
const destinationOn = (html: string) => {
  const found = /<strong data-destination[^>]*>([^<]*)<\/strong>/.exec(html);
  return found ? fromHtml(found[1]!) : undefined;
};
/** What a person reads: the page's text, without tags, attributes or the catalogue's JSON. */
const visibleText = (html: string) => fromHtml(html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]*>/g, " "));

describe("the page names the origin the code is delivered to, whatever the redirect_uri's shape", () => {
  // Each a way to make a URL read as one site and go to another; the page must name where it goes.
  const VECTORS: [string, string][] = [
    ["https://wallet.example.org@evil.example/cb", "https://evil.example"],
    ["https://wallet.example.org:secret@evil.example/cb", "https://evil.example"],
    ["https://wallet.example.org\\@evil.example/cb", "https://wallet.example.org"],
    ["https:evil.example/cb", "https://evil.example"],
    ["https:/\\evil.example/cb", "https://evil.example"],
    ["HTTPS://WALLET.EXAMPLE.ORG/cb", "https://wallet.example.org"],
    ["https://wallet.example.org:443/cb", "https://wallet.example.org"],
    ["https://wallet.example.org:8443/cb", "https://wallet.example.org:8443"],
    ["https://evil.example%2Ewallet.example.org/cb", "https://evil.example.wallet.example.org"],
    ["https://w\u0430llet.example.org/cb", "https://xn--wllet-4ve.example.org"],
    ["https://wallet.example.org\u3002evil.example/cb", "https://wallet.example.org.evil.example"],
    ["https://0x7f.1/cb", "https://127.0.0.1"],
    ["https://[::1]/cb", "https://[::1]"],
  ];

  it.each(VECTORS)("%s is named %s, and its code goes there", async (redirectUri, origin) => {
    const page = await pageFor(request({ redirect_uri: redirectUri }));
    expect(page.status).toBe(200);
    expect(destinationOn(await page.text())).toBe(origin);
    const account = await verifiedAdult();
    const approved = await call("POST", "/api/attestations/authorizations", {
      token: account.token,
      body: request({ redirect_uri: redirectUri }),
    });
    expect(approved.status, approved.text).toBe(200);
    expect(new URL(approved.body.data.redirect_to).origin).toBe(origin);
  });

  it("the no-script sign-in delivers the code to the origin the page named", async () => {
    const account = await verifiedAdult();
    const redirectUri = "https://wallet.example.org@evil.example/cb";
    const res = await signInOnPage(request({ redirect_uri: redirectUri }), { email: account.email, password: account.password });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).origin).toBe("https://evil.example");
  });

  it("property: for any https redirect_uri the page accepts, it names the origin a browser goes to", async () => {
    const uri = fc.webUrl({
      validSchemes: ["https"],
      withQueryParameters: true,
      authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
    });
    await fc.assert(
      fc.asyncProperty(uri, async (redirectUri) => {
        const page = await pageFor(request({ redirect_uri: redirectUri }));
        if (page.status !== 200) return;
        expect(destinationOn(await page.text())).toBe(new URL(redirectUri).origin);
      }),
      { numRuns: 60 },
    );
  });

  it("the wallet's client_id, which nobody vouches for, is never named on the page", async () => {
    const clientId = "Official EU Age Verification App";
    const html = await (await pageFor(request({ client_id: clientId, redirect_uri: "https://evil.example/cb" }))).text();
    expect(visibleText(html)).not.toContain(clientId);
    expect(destinationOn(html)).toBe("https://evil.example");
  });
});

describe("the page's policy lets its form lead only to the redirect_uri's own origin", () => {
  // A host may hold characters a browser's URL parser accepts but no DNS name has, and some of them are
  // the policy's own syntax: `*` (any host), `;` (a new directive), `,` (a second policy), quotes
  // (keywords). Such a redirect_uri can receive no code anyway; it must not reach the page's policy.
  const HOSTS_WITH_POLICY_SYNTAX = [
    "*",
    "*.example",
    "wallet.example.org;frame-ancestors",
    "wallet.example.org,evil",
    "'self'",
    "a!$&()+=.example",
  ];
  const formActionOf = (res: Response) => /form-action ([^;,]*)/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

  it.each(HOSTS_WITH_POLICY_SYNTAX)("https://%s/cb is refused by the page (400) and the approval (422), and gets no code", async (host) => {
    const redirectUri = `https://${host}/cb`;
    const page = await pageFor(request({ redirect_uri: redirectUri }), { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(await page.json()).toMatchObject({ error: "invalid_request" });
    const account = await verifiedAdult();
    const before = await codes();
    expectError(
      await call("POST", "/api/attestations/authorizations", { token: account.token, body: request({ redirect_uri: redirectUri }) }),
      422,
      "VALIDATION_FAILED",
    );
    expect(await codes()).toBe(before);
  });

  it("property: whatever the host, a page that is shown allows its form 'self' and exactly the origin it names", async () => {
    const hostChar = fc.constantFrom(..."abz09-._*;,'!$&()+=~\"".split(""));
    const host = fc.array(hostChar, { minLength: 1, maxLength: 16 }).map((chars) => chars.join(""));
    await fc.assert(
      fc.asyncProperty(host, async (name) => {
        const page = await pageFor(request({ redirect_uri: `https://${name}/cb` }));
        if (page.status !== 200) return;
        const origin = destinationOn(await page.text())!;
        expect(origin).toMatch(/^https:\/\/[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/);
        expect(formActionOf(page)).toBe(`'self' ${origin}`);
      }),
      { numRuns: 80 },
    );
  });
});

describe("nothing of the request becomes markup on the page", () => {
  const PAYLOADS = [
    '"><script>alert(1)</script>',
    "'><img src=x onerror=alert(1)>",
    '" onmouseover="alert(1)',
    "</strong><strong data-destination>https://wallet.example.org</strong>",
  ];
  const scriptsOf = (html: string) => html.match(/<script\b/g)?.length ?? 0;
  const destinationsOf = (html: string) => html.match(/<strong data-destination/g)?.length ?? 0;

  it("in state, client_id, the redirect_uri's path and query, ui_locales, lang or any other parameter, on the page and on its refusal", async () => {
    const baseline = await (await pageFor(request())).text();
    for (const payload of PAYLOADS) {
      const variants: Record<string, string>[] = [
        request({ state: payload }),
        request({ client_id: payload }),
        request({ redirect_uri: `https://wallet.example.org/${encodeURIComponent(payload)}?x=${encodeURIComponent(payload)}` }),
        request({ ui_locales: payload }),
        request({ lang: payload }),
        request({ [payload]: payload }),
      ];
      for (const params of variants) {
        for (const res of [
          await pageFor(params),
          await signInOnPage(params, { email: "nobody@example.org", password: "not the password" }),
        ]) {
          expect([200, 401], JSON.stringify(params)).toContain(res.status);
          const html = await res.text();
          expect(html, JSON.stringify(params)).not.toContain(payload);
          expect(html).not.toMatch(/<img src=x|onmouseover="alert|onerror=alert/);
          expect(scriptsOf(html)).toBe(scriptsOf(baseline));
          expect(destinationsOf(html)).toBe(1);
          expect(destinationOn(html)).toBe("https://wallet.example.org");
        }
      }
    }
  });
});

describe("the refusal page is as guarded as the page", () => {
  it("neither may be framed, cached, or send its address as a Referer", async () => {
    const page = await pageFor(request());
    const refusal = await signInOnPage(request(), { email: "nobody@example.org", password: "not the password" });
    expect(refusal.status).toBe(401);
    for (const res of [page, refusal]) {
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("content-security-policy")).toContain("form-action 'self' https://wallet.example.org");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });
});

describe("the passkey confirmation of an approval cannot be stood in for", () => {
  async function passkeyAdult() {
    const account = await verifiedAdult();
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(account, device);
    return { account, device };
  }
  const approve = (token: string, confirmation?: unknown) =>
    call("POST", "/api/attestations/authorizations", { token, body: { ...request(), ...(confirmation ? { confirmation } : {}) } });
  const confirmationOptions = async (token: string) =>
    (await call("POST", "/api/users/me/passkeys/confirmation-options", { token })).body.data;

  it("refuses another account's assertion, a stranger's over the account's challenge, and one over a registration challenge; takes the right one once", async () => {
    const victim = await passkeyAdult();
    const attacker = await passkeyAdult();
    const before = await codes();
    // The attacker knows the victim's password (a token) and holds a passkey of their own.
    expectError(
      await approve(victim.account.token, await attacker.device.assert(await confirmationOptions(attacker.account.token))),
      400,
      "PASSKEY_INVALID",
    );
    const stranger = await SoftwareAuthenticator.create();
    expectError(
      await approve(victim.account.token, await stranger.assert(await confirmationOptions(victim.account.token))),
      400,
      "PASSKEY_INVALID",
    );
    const registration = await call("POST", "/api/users/me/passkeys/registration-options", { token: victim.account.token, body: {} });
    expect(registration.status, registration.text).toBe(200);
    expectError(await approve(victim.account.token, await victim.device.assert(registration.body.data)), 400, "PASSKEY_INVALID");
    expect(await codes()).toBe(before);
    const assertion = await victim.device.assert(await confirmationOptions(victim.account.token));
    expect((await approve(victim.account.token, assertion)).status).toBe(200);
    expectError(await approve(victim.account.token, assertion), 400, "PASSKEY_INVALID");
    expect(await codes()).toBe(before + 1);
  });

  it("the page without script, with the right password, gives a passkey account no code", async () => {
    const { account } = await passkeyAdult();
    const before = await codes();
    const res = await signInOnPage(request(), { email: account.email, password: account.password });
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    expect(await codes()).toBe(before);
  });
});

describe("the daily count is one for both grants", () => {
  it("an account past its count by offers gets no code from the page or its approval", async () => {
    const limited = { ...env, ATTESTATION_BATCHES_PER_DAY: "1" } as Env;
    const account = await verifiedAdult();
    expect((await callWith(limited, "POST", "/api/attestations/offers", { token: account.token, body: {} })).status).toBe(201);
    const before = await codes();
    expectError(
      await callWith(limited, "POST", "/api/attestations/authorizations", { token: account.token, body: request() }),
      429,
      "RATE_LIMITED",
    );
    const onPage = await callWith(limited, "POST", `/authorize?${new URLSearchParams(request())}`, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      rawBody: new URLSearchParams({ email: account.email, password: account.password }).toString(),
    });
    expect(onPage.status).toBe(429);
    expect(onPage.headers.get("location")).toBeNull();
    expect(await codes()).toBe(before);
  });
});
