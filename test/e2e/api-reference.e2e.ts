// The API reference (/docs) in Chromium on a phone-sized screen: every route of the served OpenAPI
// document has its section, the page loads nothing from another origin and nothing fails.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium, STRICT_CSP, watchedPage } from "./browser";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";

let server: DevServer;
let browser: Browser;

beforeAll(async () => {
  server = await startDevServer({ name: "e2e-docs" });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("API reference", () => {
  it("renders every route of /api/openapi.json, readable on a phone, under the strict CSP", async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes.length).toBeGreaterThan(30);

    const { page, problems } = await watchedPage(browser);
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    const response = await page.goto(`${server.baseUrl}/docs`);
    expect(response?.headers()["content-security-policy"]).toBe(STRICT_CSP);

    const shown = await page.locator("section.operation").evaluateAll((sections) => sections.map((s) => s.getAttribute("data-route")));
    expect([...shown].sort()).toEqual([...routes].sort());
    for (const route of routes) {
      const [method, path] = route.split(" ");
      const section = page.locator(`section.operation[data-route="${route}"]`);
      await expect.poll(() => section.locator("h3").innerText()).toBe(`${method} ${path}`);
    }

    // The table of contents jumps to a section.
    await page.getByRole("link", { name: "POST /api/age-verification/session", exact: true }).click();
    expect(page.url()).toMatch(/#postApiAgeVerificationSession$/);
    await expect.poll(() => page.locator("#postApiAgeVerificationSession").isVisible()).toBe(true);

    // Readable on a 390 px screen: the page itself never scrolls sideways (wide tables and examples scroll in their own box).
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    // The stylesheet applied (the operations are cards).
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('section.operation')).borderRadius")).not.toBe("0px");
    expect(requested.every((url) => url.startsWith(server.baseUrl))).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/api-reference.png` });
    expect(problems).toEqual([]);
  });

  it("is linked from the merchant console", async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${server.baseUrl}/console`);
    await page.getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(`${server.baseUrl}/docs`);
    await expect.poll(() => page.locator("h2").first().innerText()).toBe("Health");
    expect(problems).toEqual([]);
  });
});
