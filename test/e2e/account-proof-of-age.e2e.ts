// "Add proof of age to a wallet" on the person's account page (/account) in chromium. In English at 320,
// 390 and 1280 px, a verified adult makes an offer and gets the offer screen: the QR code on the wide
// screen (decoded here with jsqr: it holds the av:// offer), the av:// link to tap on a phone, the six
// digits and the offer's end; the standard OpenID4VCI client (@openid4vc/openid4vci) then redeems that
// offer with those digits and receives an attestation. An account with a passkey confirms with it
// (Chromium's virtual authenticator); an offer left alone goes away when it expires. In every language the
// section and the offer screen are the catalogue's words, with no key left untranslated. A person not
// verified, under 18, or on a deployment that issues nothing is told why, with no button. Every screen
// scanned by axe, no wider than the viewport, and screenshotted.
import jsQR from "jsqr";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { de } from "../../src/web/i18n/de";
import { en, type Catalogue } from "../../src/web/i18n/en";
import { es } from "../../src/web/i18n/es";
import { fr } from "../../src/web/i18n/fr";
import { it as italian } from "../../src/web/i18n/it";
import { openid4vciClient, proofsFor } from "../attestations/openid4vci-client";
import { verifiedPerson } from "./end-user";
import { api, uniqueAddress, uniqueEmail } from "./merchant";
import { checkScreen, lessConsoleNotes, openAtWidth, useVerifyEnv, withAuthenticator, type Width } from "./verify-setup";

const env = useVerifyEnv();
const PASSWORD = "person-password-1";

// Each person at an address of their own: sign-ins and offers are limited per address as people's are.
const sized = (width: Width, lang = "en") =>
  openAtWidth(env.browser, width, { locale: lang, extraHTTPHeaders: { "cf-connecting-ip": uniqueAddress() } });

/** The account page already signed in, as /verify leaves it (its sign-in in this tab's sessionStorage). */
async function openSignedIn(page: Page, token: string, lang: string) {
  await page.addInitScript((value) => (globalThis as any).sessionStorage.setItem("avs.verify.token", value), token);
  await page.goto(`${env.server.baseUrl}/account?lang=${lang}`);
  await page.locator("#me-proof").waitFor({ state: "visible" });
}

const screen = (page: Page, name: string) => checkScreen(page, `account-proof-${name}`);

const text = (page: Page, selector: string) => page.locator(selector).innerText();

/** The QR code as the screen shows it, drawn on a canvas in the page and decoded here by jsqr. */
async function decodedQr(page: Page): Promise<string | null> {
  const size = 480;
  const dark = await page.evaluate(async (size) => {
    const doc = (globalThis as any).document;
    const svg = doc.querySelector("#me-proof-qr svg");
    const image = new (globalThis as any).Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new (globalThis as any).XMLSerializer().serializeToString(svg))}`;
    await image.decode();
    const canvas = doc.createElement("canvas");
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0, size, size);
    const { data } = context.getImageData(0, 0, size, size);
    let bits = "";
    for (let i = 0; i < data.length; i += 4) bits += data[i] < 128 ? "1" : "0";
    return bits;
  }, size);
  const rgba = new Uint8ClampedArray(size * size * 4);
  for (let i = 0; i < dark.length; i++) {
    rgba.fill(dark[i] === "1" ? 0 : 255, i * 4, i * 4 + 3);
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, size, size)?.data ?? null;
}

/** The standard client as the wallet: the offer and the digits the person read get it an attestation. */
async function redeem(offerUri: string, txCode: string) {
  const client = openid4vciClient(fetch);
  const credentialOffer = await client.resolveCredentialOffer(offerUri);
  expect(credentialOffer.credential_issuer).toBe(env.server.baseUrl);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer, issuerMetadata, txCode });
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const { jwts } = await proofsFor(client, issuerMetadata, c_nonce, 1);
  const issued = await client.retrieveCredentials({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentialConfigurationId: "proof_of_age",
    proofs: { jwt: jwts },
  });
  return issued.credentialResponse.credentials ?? [];
}

describe("the offer screen in English, one journey at each width", () => {
  for (const width of [320, 390, 1280] as const) {
    it(`${width} px: signs in, makes an offer, reads the ${width === 1280 ? "QR code" : "av:// link"} and the digits, which redeem it; closes it`, async () => {
      const person = await verifiedPerson(env.server.baseUrl, PASSWORD);
      const { page, problems } = await sized(width);
      await page.goto(`${env.server.baseUrl}/account`);
      await page.locator("#me-login-email").fill(person.email);
      await page.locator("#me-login-password").fill(PASSWORD);
      await page.locator("#me-login-form button[type=submit]").click();
      await page.locator("#me-proof").waitFor({ state: "visible" });
      expect(await text(page, "#me-proof-title")).toBe(en["me.proof.title"]);
      await page.locator("#me-proof-start").waitFor({ state: "visible" });
      expect(await page.locator("#me-proof-notice").isVisible()).toBe(false);
      await page.getByRole("button", { name: en["me.proof.start"] }).click();

      await page.locator("#me-proof-offer").waitFor({ state: "visible" });
      const code = await text(page, "#me-proof-code");
      expect(code).toMatch(/^\d{6}$/);
      expect(await text(page, "#me-proof-expires")).toContain(en["me.proof.expires"].split("{time}")[1]!.trim());
      await screen(page, `en-${width}-offer`);
      const avLink = await page.locator("#me-proof-open").getAttribute("href");
      const otherLink = await page.locator("#me-proof-other").getAttribute("href");
      expect(avLink).toMatch(/^av:\/\/\?credential_offer=/);
      expect(otherLink).toBe(avLink!.replace(/^av:\/\//, "openid-credential-offer://"));
      let offerUri: string;
      if (width === 1280) {
        // The wide screen: the QR code to scan with the phone, no link to tap here.
        expect(await page.locator("#me-proof-qr svg").isVisible()).toBe(true);
        expect(await page.locator("#me-proof-open").isVisible()).toBe(false);
        offerUri = (await decodedQr(page))!;
        expect(offerUri).toBe(avLink);
      } else {
        // The phone: the link its wallet app opens, no QR code it could not scan itself.
        expect(await page.locator("#me-proof-qr").isVisible()).toBe(false);
        expect(await page.getByRole("link", { name: en["me.proof.open"] }).isVisible()).toBe(true);
        offerUri = avLink!;
      }
      expect(await redeem(offerUri, code)).toHaveLength(1);

      await page.getByRole("button", { name: en["me.proof.close"] }).click();
      expect(await page.locator("#me-proof-offer").isVisible()).toBe(false);
      expect(await page.locator("#me-proof-code").textContent()).toBe("");
      expect(await page.locator("#me-proof-qr svg").count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe("me-proof-start");
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it("an account with a passkey confirms the offer with it; an offer left open goes when it expires", async () => {
    const person = await verifiedPerson(env.server.baseUrl, PASSWORD);
    const { page, problems } = await sized(390);
    await withAuthenticator(page);
    await page.clock.install();
    await openSignedIn(page, person.token, "en");
    await page.locator("#passkey-add-password").fill(PASSWORD);
    await page.locator("#passkey-add").click();
    await expect.poll(() => text(page, "#passkey-settings-notice")).toBe(en["passkey.created"]);
    await page.locator("#me-proof-start").click();
    await page.locator("#me-proof-offer").waitFor({ state: "visible" });
    // Without the assertion the API refuses (403 PASSKEY_REQUIRED): the offer proves the passkey was used.
    expect(await api(env.server.baseUrl, "POST", "/api/attestations/offers", { token: person.token, body: {} })).toMatchObject({
      status: 403,
      body: { error: "PASSKEY_REQUIRED" },
    });
    expect(await text(page, "#me-proof-code")).toMatch(/^\d{6}$/);
    await page.clock.fastForward("05:01");
    await expect.poll(() => text(page, "#me-proof-notice")).toBe(en["me.proof.expired"]);
    expect(await page.locator("#me-proof-offer").isVisible()).toBe(false);
    expect(await page.locator("#me-proof-code").textContent()).toBe("");
    expect(await page.locator("#me-proof-start").isVisible()).toBe(true);
    await screen(page, "en-390-expired");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("the section and the offer screen in every language", () => {
  const LANGUAGES: { lang: string; cat: Catalogue; width: Width }[] = [
    { lang: "en", cat: en, width: 1280 },
    { lang: "fr", cat: fr, width: 320 },
    { lang: "de", cat: de, width: 1280 },
    { lang: "es", cat: es, width: 390 },
    { lang: "it", cat: italian, width: 320 },
  ];
  for (const { lang, cat, width } of LANGUAGES) {
    it(`${lang} at ${width} px: the catalogue's words, no key shown, axe clean`, async () => {
      const person = await verifiedPerson(env.server.baseUrl, PASSWORD, { locale: lang });
      const { page, problems } = await sized(width, lang);
      await openSignedIn(page, person.token, lang);
      expect(await page.locator("html").getAttribute("lang")).toBe(lang);
      expect(await text(page, "#me-proof-title")).toBe(cat["me.proof.title"]);
      expect(await text(page, "#me-proof-start")).toBe(cat["me.proof.start"]);
      await page.locator("#me-proof-start").click();
      await page.locator("#me-proof-offer").waitFor({ state: "visible" });
      expect(await text(page, "#me-proof-expires")).toContain(cat["me.proof.expires"].split("{time}")[0]!.trim());
      if (width === 1280) {
        expect(await page.getByRole("img", { name: cat["me.proof.qr"] }).isVisible()).toBe(true);
        expect(await text(page, ".proof-qr p")).toBe(cat["me.proof.scan"]);
      } else {
        expect(await text(page, "#me-proof-open")).toBe(cat["me.proof.open"]);
        expect(await text(page, "#me-proof-other")).toBe(cat["me.proof.other"]);
      }
      expect(await text(page, "#me-proof-offer")).toContain(cat["me.proof.code"]);
      expect(await text(page, "body")).not.toMatch(/\bme\.proof\.|\{time\}/);
      await screen(page, `${lang}-${width}-offer`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});

describe("no offer, and why", () => {
  it("an identity not verified yet: the reason in place of the button", async () => {
    const registered = await api<{ token: string }>(env.server.baseUrl, "POST", "/api/auth/register", {
      address: uniqueAddress(),
      body: { email: uniqueEmail("me"), password: PASSWORD, userType: "PERSONAL" },
    });
    const { page, problems } = await sized(390);
    await openSignedIn(page, registered.body.data.token, "en");
    await expect.poll(() => text(page, "#me-proof-notice")).toBe(en["me.proof.kyc"]);
    expect(await page.locator("#me-proof-start").isVisible()).toBe(false);
    await screen(page, "en-390-not-verified");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("under 18: the server's refusal (403 ATTESTATION_NOT_ALLOWED) replaces the button with the reason", async () => {
    const person = await verifiedPerson(env.server.baseUrl, PASSWORD, { years: 16 });
    const { page, problems } = await sized(320);
    await openSignedIn(page, person.token, "en");
    await page.locator("#me-proof-start").click();
    await expect.poll(() => text(page, "#me-proof-notice")).toBe(en["me.proof.underage"]);
    expect(await page.locator("#me-proof-start").isVisible()).toBe(false);
    expect(await page.locator("#me-proof-offer").isVisible()).toBe(false);
    await screen(page, "en-320-under-18");
    expect(lessConsoleNotes(problems, 403)).toEqual([`HTTP 403 ${env.server.baseUrl}/api/attestations/offers`]);
    await page.context().close();
  });

  it("a deployment that issues nothing (its issuer metadata is 404): said so, no button", async () => {
    const person = await verifiedPerson(env.server.baseUrl, PASSWORD);
    const { page, problems } = await sized(1280);
    await page.route("**/.well-known/openid-credential-issuer", (route) =>
      route.fulfill({ status: 404, contentType: "application/json", body: '{"success":false,"error":"NOT_FOUND"}' }),
    );
    await openSignedIn(page, person.token, "en");
    await expect.poll(() => text(page, "#me-proof-notice")).toBe(en["me.proof.unavailable"]);
    expect(await page.locator("#me-proof-start").isVisible()).toBe(false);
    expect(lessConsoleNotes(problems, 404)).toEqual([`HTTP 404 ${env.server.baseUrl}/.well-known/openid-credential-issuer`]);
    await page.context().close();
  });
});
