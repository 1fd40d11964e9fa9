/// <reference types="vite/client" />
// The /verify page's digital-ID way (docs/digital-id.md): in chromium with the test wallet in the page
// (page-wallet.ts), the server's verification real. One tap approves on a phone and a desktop viewport
// and the merchant's poll shows APPROVED with DIGITAL_ID_VERIFIED; a browser without the API is told so
// and offered the other ways; axe on every screen.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "./browser";
import { api, openSession, verifyLink } from "./merchant";
import { withWallet } from "./page-wallet";
import { expectAccessible, openPage as open, useVerifyEnv, type Viewport } from "./verify-setup";

const env = useVerifyEnv();
const openPage = (viewport: Viewport) => open(env.browser, viewport);

/** A browser without the Digital Credentials API (this chromium ships it: the interface is removed before any script runs). */
async function withoutWalletApi(page: Page) {
  await page.addInitScript(() => {
    delete (globalThis as any).DigitalCredential;
  });
}

const pollSession = async (sessionId: string) =>
  (
    await api<{ status: string; assurance: string | null; holder_binding: string | null }>(
      env.server.baseUrl,
      "GET",
      `/api/age-verification/session/${sessionId}`,
      { apiKey: env.merchant.apiKey },
    )
  ).body.data;

describe.each(["phone", "desktop"] as const)("a digital ID from the wallet on a %s", (viewport) => {
  it("is offered first, and one tap approves: the merchant's poll shows APPROVED with DIGITAL_ID_VERIFIED", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await openPage(viewport);
    const wallet = await withWallet(page, { 18: true, 21: false });
    await page.goto(verifyLink(env.server.baseUrl, session));
    const use = page.getByRole("button", { name: "Use a digital ID from your wallet" });
    await use.waitFor({ state: "visible" });
    // The wallet's way comes before the account path, which stays below it.
    expect(await page.locator("#step-account").isVisible()).toBe(true);
    const [walletTop, accountTop] = await Promise.all([
      page.locator("#step-wallet").boundingBox(),
      page.locator("#step-account").boundingBox(),
    ]);
    expect(walletTop!.y).toBeLessThan(accountTop!.y);
    await expect(page.locator("#wallet-unsupported").isVisible()).resolves.toBe(false);
    await expectAccessible(page);

    await use.click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    await expect(page.locator("#result-title").textContent()).resolves.toBe("You are verified");
    await expect(page.locator("#result-receipt").textContent()).resolves.toMatch(/^Receipt rcpt_/);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/verify-digital-id-approved-${viewport}.png`, fullPage: true });
    expect(wallet.count).toBe(1);
    expect(await pollSession(session.session_id)).toMatchObject({
      status: "APPROVED",
      assurance: "DIGITAL_ID_VERIFIED",
      holder_binding: "DEVICE_KEY",
    });
    expect(problems).toEqual([]);
  });

  it("a credential under the age shows the under-age result, from the digital ID's own words", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 21);
    const { page, problems } = await openPage(viewport);
    await withWallet(page, { 18: true, 21: false });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByRole("button", { name: "Use a digital ID from your wallet" }).click();
    await page.locator('#step-result[data-result="underage_wallet"]').waitFor({ state: "visible" });
    await expect(page.locator("#result-text").textContent()).resolves.toMatch(/^Your digital ID says that you are not yet 21\./);
    await expectAccessible(page);
    expect(await pollSession(session.session_id)).toMatchObject({ status: "DENIED", assurance: "DIGITAL_ID_VERIFIED" });
    expect(problems).toEqual([]);
  });

  it("a browser without the Digital Credentials API is told so, and the account path stays", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await openPage(viewport);
    await withoutWalletApi(page);
    await page.goto(verifyLink(env.server.baseUrl, session));
    const unsupported = page.locator("#wallet-unsupported");
    await unsupported.waitFor({ state: "visible" });
    await expect(unsupported.textContent()).resolves.toMatch(/^This browser cannot use a digital ID from a wallet\./);
    await expect(page.locator("#wallet-use").isVisible()).resolves.toBe(false);
    expect(await page.locator("#step-account").isVisible()).toBe(true);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});

describe("a session that accepts only a digital ID", () => {
  it("offers no account path; without the API, the page says this browser cannot answer it", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { accepted_assurance: ["DIGITAL_ID_VERIFIED"] });
    const { page, problems } = await openPage("phone");
    await withoutWalletApi(page);
    await page.goto(verifyLink(env.server.baseUrl, session));
    const unsupported = page.locator("#wallet-unsupported");
    await unsupported.waitFor({ state: "visible" });
    await expect(unsupported.textContent()).resolves.toMatch(/accepts no other way/);
    expect(await page.locator("#step-account").isVisible()).toBe(false);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it("with a wallet, one tap approves without any account", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { accepted_assurance: ["DIGITAL_ID_VERIFIED"] });
    const { page, problems } = await openPage("desktop");
    await withWallet(page, { 18: true });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByRole("button", { name: "Use a digital ID from your wallet" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect(await page.locator("#step-account").isVisible()).toBe(false);
    expect((await pollSession(session.session_id)).status).toBe("APPROVED");
    expect(problems).toEqual([]);
  });
});
