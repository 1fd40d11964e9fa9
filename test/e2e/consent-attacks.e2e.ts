// Attacks on the consent page that need its script (consent.browser.js) running in chromium: the script
// reads the wallet's request from the page's address itself, so an address the server and the browser
// read differently (a parameter given twice, an encoded name) could send the code somewhere else than
// the page named. The code must reach only the destination the page shows.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { en } from "../../src/web/i18n/en";
import { verifiedPerson } from "./end-user";
import { uniqueAddress } from "./merchant";
import { openAtWidth, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();
const PASSWORD = "person-password-1";
const WALLET = "https://wallet.example.test";
const ATTACKER = "https://attacker.example.test";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/** Every address the browser was sent to on either site, answered as a wallet's page would be. */
async function arrivals(page: Page) {
  const received: URL[] = [];
  for (const site of [WALLET, ATTACKER]) {
    await page.route(`${site}/**`, async (route) => {
      received.push(new URL(route.request().url()));
      await route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><title>Wallet</title><main><h1>Wallet</h1></main>",
      });
    });
  }
  return received;
}

describe("the consent page's script sends the code only where the page says", () => {
  it("a redirect_uri given twice, or under an encoded name: the page names the first, and the code goes there", async () => {
    const person = await verifiedPerson(env.server.baseUrl, PASSWORD);
    const base = `response_type=code&scope=proof_of_age&client_id=w&code_challenge=${CHALLENGE}&code_challenge_method=S256&state=s`;
    const query = `${base}&redirect_uri=${encodeURIComponent(`${WALLET}/cb`)}&redirect_uri=${encodeURIComponent(`${ATTACKER}/cb`)}&redirect%5Furi=${encodeURIComponent(`${ATTACKER}/x`)}`;
    const { page, problems } = await openAtWidth(env.browser, 390, {
      locale: "en",
      extraHTTPHeaders: { "cf-connecting-ip": uniqueAddress() },
    });
    const received = await arrivals(page);
    await page.goto(`${env.server.baseUrl}/authorize?${query}`);
    expect(await page.locator("[data-destination]").innerText()).toBe(WALLET);
    await page.locator("#consent-email").fill(person.email);
    await page.locator("#consent-password").fill(PASSWORD);
    await page.getByRole("button", { name: en["consent.submit"] }).click();
    await expect.poll(() => received.length).toBe(1);
    expect(`${received[0]!.origin}${received[0]!.pathname}`).toBe(`${WALLET}/cb`);
    expect(received[0]!.searchParams.get("code")).toBeTruthy();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
