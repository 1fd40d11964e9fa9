// The console browser tests' shared setup: one dev server and one chromium per file, a page signed in
// the way the console signs in (the token in the tab's sessionStorage, then a reload), and the layout
// checks of a phone.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { launchChromium } from "./browser";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };
/** The narrowest phone a console screen must fit (docs/end-user-apps.md). */
export const NARROW = { width: 320, height: 640 };

/** Starts a dev server and chromium before the file's tests and stops both after; read them in a test. */
export function consoleHarness(name = "e2e"): { server: DevServer; browser: Browser } {
  const harness = {} as { server: DevServer; browser: Browser };
  beforeAll(async () => {
    harness.server = await startDevServer({ name });
    harness.browser = await launchChromium();
  });
  afterAll(async () => {
    await harness.browser?.close();
    await harness.server?.stop();
  });
  return harness;
}

/**
 * Opens the console signed in with an account token, at a section ("#usage", "#account") or the keys.
 * The token is stored from a page of the same origin that runs no script (the API reference), so no
 * console load with an earlier token is cut short by the navigation.
 */
export async function openSignedIn(page: Page, baseUrl: string, token: string, hash = "") {
  await page.goto(`${baseUrl}/docs`);
  await page.evaluate((t) => (globalThis as any).sessionStorage.setItem("avs.console.token", t), token);
  await page.goto(`${baseUrl}/console${hash}`);
}

/** The control lies fully inside the phone's width once scrolled into view vertically. */
export async function withinPhoneWidth(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.x, selector).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, selector).toBeLessThanOrEqual(PHONE.width);
}

/** The problems a page recorded, less the HTTP statuses a test provoked on purpose (its answer and chromium's note of it). */
export const unexpected = (problems: string[], ...provoked: number[]) =>
  problems.filter((p) => !provoked.some((status) => p.startsWith(`HTTP ${status}:`) || p.includes(`status of ${status} `)));

/** The page's own width against the viewport's, with the widest culprits named when it is wider. */
export async function fitsViewport(page: Page, screen: string) {
  const result = await page.evaluate(() => {
    const doc = (globalThis as any).document;
    const width = doc.documentElement.clientWidth;
    const culprits = [...doc.querySelectorAll("body *")]
      .filter(
        (el: any) => el.getBoundingClientRect().right > width + 0.5 && el.getClientRects().length > 0 && !el.closest(".table-wrap > table"),
      )
      .slice(0, 5)
      .map(
        (el: any) =>
          `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`,
      );
    return { scrollWidth: doc.documentElement.scrollWidth, width, culprits };
  });
  expect({ screen, over: Math.max(0, result.scrollWidth - result.width), culprits: result.culprits }).toEqual({
    screen,
    over: 0,
    culprits: [],
  });
}
