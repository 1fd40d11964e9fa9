// The setup the /verify browser files share: one `wrangler dev` and one chromium per file, a verified
// merchant with a live key, and pages on a phone or a desktop viewport that record what went wrong.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { seriousViolations } from "./axe";
import { ARTIFACTS, launchChromium } from "./browser";
import { fitsViewport } from "./console-helpers";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { merchantWithKey } from "./merchant";

export type VerifyEnv = { server: DevServer; browser: Browser; merchant: Awaited<ReturnType<typeof merchantWithKey>> };

/** Starts the server (with `vars`) and chromium before the file's tests, and stops both after. */
export function useVerifyEnv(vars: Record<string, string> = {}): VerifyEnv {
  const env = {} as VerifyEnv;
  beforeAll(async () => {
    env.server = await startDevServer({ name: "e2e", vars });
    env.browser = await launchChromium();
    env.merchant = await merchantWithKey(env.server.baseUrl);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
export type Viewport = keyof typeof VIEWPORTS;

/**
 * A page that records script errors, failed requests and HTTP errors; a 404 from the first screen's
 * read (/preview) is one the tests provoke with a wrong link, and chromium logs it to the console.
 */
export async function openPage(browser: Browser, viewport: Viewport, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().includes("404")) problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) =>
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ""}`),
  );
  page.on("response", (r) => {
    if (r.status() >= 400 && !(r.status() === 404 && r.url().includes("/preview"))) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  return { page, problems };
}

/** The problems less chromium's console note of a status the test provoked (the response itself stays listed). */
export const lessConsoleNotes = (problems: string[], status: number) =>
  problems.filter((p) => !(p.startsWith("console: ") && p.includes(`status of ${status} `)));

export async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

export const focusedId = (page: Page) => page.evaluate(() => ((globalThis as any).document.activeElement?.id as string | undefined) ?? "");

/** The three widths the end user's screens are checked at: a small phone, a phone, a desktop. */
export type Width = 320 | 390 | 1280;

/** A page at one of the three widths (320 px: a 640 px tall phone). */
export async function openAtWidth(browser: Browser, width: Width, options: BrowserContextOptions = {}) {
  const opened = await openPage(browser, width === 1280 ? "desktop" : "phone", options);
  if (width === 320) await opened.page.setViewportSize({ width: 320, height: 640 });
  return opened;
}

/** axe, the width, and a screenshot to look at (test/artifacts/<name>.png). */
export async function checkScreen(page: Page, name: string) {
  await expectAccessible(page);
  await fitsViewport(page, name);
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
}

/** A platform authenticator with user verification (Chromium's virtual one), as a phone's biometrics would be. */
export async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
