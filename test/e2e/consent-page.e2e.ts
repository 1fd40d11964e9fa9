// The consent page a wallet opens in the authorization code flow (GET /authorize) in chromium. The
// wallet is the standard OpenID4VCI client (@openid4vc/openid4vci): it builds the request (PKCE S256) and
// takes the code from its https redirect_uri (answered here by page.route, as the wallet's own page would
// be), then exchanges it. In each of the five languages, chosen as the other pages choose theirs (the
// browser's language; the wallet's ui_locales; the switcher, which keeps the request), the page is the
// catalogue's words with no key left, names where the code goes, passes axe and fits 320, 390 or
// 1280 px; a person signs in and their wallet receives the code. An account with a passkey signs in and
// confirms with it (Chromium's virtual authenticator), and its wallet receives a code that gets it an
// attestation; the same account without the page's script is told why a password alone cannot do it.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { de } from "../../src/web/i18n/de";
import { en, type Catalogue } from "../../src/web/i18n/en";
import { es } from "../../src/web/i18n/es";
import { fr } from "../../src/web/i18n/fr";
import { it as italian } from "../../src/web/i18n/it";
import { openid4vciClient, proofsFor } from "../attestations/openid4vci-client";
import { verifiedPerson } from "./end-user";
import { uniqueAddress } from "./merchant";
import { checkScreen, lessConsoleNotes, openAtWidth, useVerifyEnv, withAuthenticator, type Width } from "./verify-setup";

const env = useVerifyEnv();
const PASSWORD = "person-password-1";
const WALLET = "https://wallet.example.test";
const REDIRECT_URI = `${WALLET}/callback`;

/** The standard client's authorization request for a proof of age, and what it needs to redeem the code. */
async function walletRequest(extra: Record<string, string> = {}) {
  const client = openid4vciClient(fetch);
  const issuerMetadata = await client.resolveIssuerMetadata(env.server.baseUrl);
  const credentialOffer = {
    credential_issuer: env.server.baseUrl,
    credential_configuration_ids: ["proof_of_age"],
    grants: { authorization_code: {} },
  };
  const { authorizationRequestUrl, pkce } = await client.createAuthorizationRequestUrlFromOffer({
    credentialOffer,
    issuerMetadata,
    clientId: "age-wallet",
    redirectUri: REDIRECT_URI,
    scope: "proof_of_age",
  });
  const url = new URL(authorizationRequestUrl);
  url.searchParams.set("state", `state-${Date.now()}`);
  for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
  return { client, issuerMetadata, credentialOffer, url, pkce: pkce! };
}

/** The wallet's redirect_uri, answered in the browser: the addresses the browser was sent to. */
async function walletReceives(page: Page) {
  const received: URL[] = [];
  await page.route(`${WALLET}/**`, async (route) => {
    received.push(new URL(route.request().url()));
    await route.fulfill({
      status: 200,
      contentType: "text/html",
      body: "<!doctype html><title>Wallet</title><main><h1>Wallet</h1></main>",
    });
  });
  return received;
}

// Each person at an address of their own: sign-ins and offers are limited per address as people's are.
const sized = (width: Width, lang = "en") =>
  openAtWidth(env.browser, width, { locale: lang, extraHTTPHeaders: { "cf-connecting-ip": uniqueAddress() } });

const screen = (page: Page, name: string) => checkScreen(page, `consent-${name}`);

const text = (page: Page, selector: string) => page.locator(selector).innerText();

async function signIn(page: Page, email: string, password: string, cat: Catalogue) {
  await page.locator("#consent-email").fill(email);
  await page.locator("#consent-password").fill(password);
  await page.getByRole("button", { name: cat["consent.submit"] }).click();
}

describe("the consent page in five languages", () => {
  const LANGUAGES: { lang: string; cat: Catalogue; width: Width }[] = [
    { lang: "en", cat: en, width: 390 },
    { lang: "fr", cat: fr, width: 320 },
    { lang: "de", cat: de, width: 1280 },
    { lang: "es", cat: es, width: 390 },
    { lang: "it", cat: italian, width: 320 },
  ];
  for (const { lang, cat, width } of LANGUAGES) {
    it(`${lang} at ${width} px: the catalogue's words and the wallet's address; signing in sends the code to the wallet`, async () => {
      const person = await verifiedPerson(env.server.baseUrl, PASSWORD, { locale: lang });
      const { url } = await walletRequest();
      const state = url.searchParams.get("state");
      const { page, problems } = await sized(width, lang);
      const received = await walletReceives(page);
      await page.goto(url.toString());
      expect(await page.locator("html").getAttribute("lang")).toBe(lang);
      expect(await text(page, "#consent-title")).toBe(cat["consent.title"]);
      expect(await page.title()).toBe(cat["consent.title"]);
      expect(await text(page, "[data-destination]")).toBe(WALLET);
      expect(await text(page, "main")).toContain(cat["consent.destination"].replace("{destination}", WALLET));
      expect(await text(page, "main")).toContain(cat["consent.own"]);
      expect(await text(page, "body")).not.toMatch(/\bconsent\.|\{destination\}/);
      await screen(page, `${lang}-${width}`);

      await signIn(page, person.email, PASSWORD, cat);
      await expect.poll(() => received.length).toBe(1);
      const back = received[0]!;
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
      expect(back.searchParams.get("code")).toBeTruthy();
      expect(back.searchParams.get("state")).toBe(state);
      expect(back.searchParams.get("iss")).toBe(env.server.baseUrl);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it("the wallet's ui_locales chooses the language, and the switcher keeps the request", async () => {
    const { url } = await walletRequest({ ui_locales: "de-AT fr" });
    const { page, problems } = await sized(390, "en");
    await page.goto(url.toString());
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await text(page, "#consent-title")).toBe(de["consent.title"]);
    await page.getByRole("navigation", { name: de["page.language"] }).getByRole("link", { name: "Italiano" }).click();
    await page.locator("#consent-title").waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("it");
    expect(await text(page, "#consent-title")).toBe(italian["consent.title"]);
    expect(await text(page, "[data-destination]")).toBe(WALLET);
    const switched = new URL(page.url());
    for (const name of ["client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state", "scope", "response_type"]) {
      expect(switched.searchParams.get(name), name).toBe(url.searchParams.get(name));
    }
    // A wallet's own scheme is named as the app that opens its links, in the page's language.
    const app = new URL(url);
    app.searchParams.set("redirect_uri", "eu.europa.ec.av://callback");
    app.searchParams.set("lang", "fr");
    await page.goto(app.toString());
    expect(await text(page, "[data-destination]")).toBe(fr["consent.destination.app"].replace("{scheme}", "eu.europa.ec.av:"));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a wrong password is said on the page, and nothing reaches the wallet", async () => {
    const person = await verifiedPerson(env.server.baseUrl, PASSWORD);
    const { url } = await walletRequest();
    const { page, problems } = await sized(390);
    const received = await walletReceives(page);
    await page.goto(url.toString());
    await signIn(page, person.email, "not-the-password", en);
    await expect.poll(() => text(page, "#consent-form .notice")).toBe(en["consent.error.credentials"]);
    await screen(page, "en-390-wrong-password");
    expect(received).toEqual([]);
    expect(lessConsoleNotes(problems, 401)).toEqual([`HTTP 401 ${env.server.baseUrl}/api/auth/login`]);
    await page.context().close();
  });
});

describe("an account with a passkey on the consent page", () => {
  it("signs in, confirms with its passkey, and the wallet's code gets it an attestation", async () => {
    const person = await verifiedPerson(env.server.baseUrl, PASSWORD);
    const { page, problems } = await sized(390);
    await withAuthenticator(page);
    // The passkey, made on the person's account page.
    await page.addInitScript((value) => (globalThis as any).sessionStorage.setItem("avs.verify.token", value), person.token);
    await page.goto(`${env.server.baseUrl}/account`);
    await page.locator("#passkey-add-password").fill(PASSWORD);
    await page.locator("#passkey-add").click();
    await expect.poll(() => text(page, "#passkey-settings-notice")).toBe(en["passkey.created"]);

    // Without the page's script, the password alone is refused, and the page says why.
    const wallet = await walletRequest();
    const plain = await fetch(`${env.server.baseUrl}/authorize${wallet.url.search}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: new URLSearchParams({ email: person.email, password: PASSWORD }).toString(),
    });
    expect(plain.status).toBe(403);
    expect(plain.headers.get("location")).toBeNull();
    expect(await plain.text()).toContain(en["consent.error.passkey"]);

    const received = await walletReceives(page);
    await page.goto(wallet.url.toString());
    await screen(page, "en-390-passkey-account");
    await signIn(page, person.email, PASSWORD, en);
    await expect.poll(() => received.length).toBe(1);
    const code = received[0]!.searchParams.get("code")!;
    expect(received[0]!.searchParams.get("state")).toBe(wallet.url.searchParams.get("state"));

    const { client, issuerMetadata, credentialOffer, pkce } = wallet;
    const { accessTokenResponse } = await client.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      authorizationCode: code,
      pkceCodeVerifier: pkce.codeVerifier,
      redirectUri: REDIRECT_URI,
    });
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const { jwts } = await proofsFor(client, issuerMetadata, c_nonce, 2);
    const issued = await client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: "proof_of_age",
      proofs: { jwt: jwts },
    });
    expect(issued.credentialResponse.credentials).toHaveLength(2);
    // The page's first approval without the assertion is the server asking for the passkey (403), nothing else.
    expect(lessConsoleNotes(problems, 403)).toEqual([`HTTP 403 ${env.server.baseUrl}/api/attestations/authorizations`]);
    await page.context().close();
  });
});
