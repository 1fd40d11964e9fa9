// The merchant console on a 390 px phone (issue 24): every key action reachable without sideways
// scrolling, axe on each screen, "Sign out" for this browser apart from "Sign out everywhere".
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium, watchedPage } from "./browser";
import { seriousViolations } from "./axe";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { api, merchantWithKey } from "./merchant";

let server: DevServer;
let browser: Browser;

beforeAll(async () => {
  server = await startDevServer({ name: "e2e" });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The control lies fully inside the 390 px viewport once scrolled into view vertically. */
async function withinPhoneWidth(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.x, selector).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, selector).toBeLessThanOrEqual(390);
}

describe("console on a phone", () => {
  it("reaches every key action, passes axe on each screen, and signs out this browser only", async () => {
    const merchant = await merchantWithKey(server.baseUrl);
    const { page, problems } = await watchedPage(browser); // 390 x 844
    await page.goto(`${server.baseUrl}/console`);
    await page.locator("#console-auth").waitFor({ state: "visible" });
    expect(await seriousViolations(page)).toEqual([]);

    await page.evaluate((token) => (globalThis as any).sessionStorage.setItem("avs.console.token", token), merchant.token);
    await page.reload();
    await page.locator("#keys-table tbody tr").first().waitFor();
    await expect(page.locator("h1#console-heading").count()).resolves.toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await withinPhoneWidth(page, "#create-key-form button[type=submit]");
    await withinPhoneWidth(page, "#keys-table tbody tr button");
    await page.screenshot({ path: `${ARTIFACTS}/console-phone-keys.png`, fullPage: true });

    await page.getByRole("textbox", { name: "Key name" }).fill("phone key");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("button", { name: "Copy the API key" }).waitFor({ state: "visible" });
    await expect(page.getByRole("button", { name: "Copy the signing secret" }).isVisible()).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("tab", { name: "Usage" }).click();
    await page.locator("#section-usage").waitFor({ state: "visible" });
    expect(await seriousViolations(page)).toEqual([]);

    // "Sign out" forgets this browser's sign-in only: the token still works elsewhere.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.locator("#console-auth").waitFor({ state: "visible" });
    expect((await api(server.baseUrl, "GET", "/api/users/me", { token: merchant.token })).status).toBe(200);
    expect(problems).toEqual([]);
  });
});
