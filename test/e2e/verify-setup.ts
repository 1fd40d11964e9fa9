// The setup the /verify browser files share: one `wrangler dev` and one chromium per file, a verified
// merchant with a live key, and pages on a phone or a desktop viewport that record what went wrong.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { seriousViolations } from "./axe";
import { launchChromium } from "./browser";
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
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400 && !(r.status() === 404 && r.url().includes("/preview"))) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  return { page, problems };
}

export async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

export const focusedId = (page: Page) => page.evaluate(() => ((globalThis as any).document.activeElement?.id as string | undefined) ?? "");
