// The API reference (/docs) in Chromium on a phone-sized screen: every route of the served OpenAPI
// document has its section, the page loads nothing from another origin and nothing fails. docs/end-user-apps.md: on a
// phone and a desktop, the callbacks with their signature headers and a verification example, the guides
// named (not shown as bare paths), an index at hand wherever one is on the page, a request example per
// operation, and axe clean (every scrolling box reachable by keyboard).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium, STRICT_CSP, watchedPage } from "./browser";
import { seriousViolations } from "./axe";
import { DESKTOP, PHONE } from "./console-helpers";
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
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.length).toBeGreaterThan(30);

    const { page, problems } = await watchedPage(browser);
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    const response = await page.goto(`${server.baseUrl}/docs`);
    expect(response?.headers()["content-security-policy"]).toBe(STRICT_CSP);

    const shown = await page
      .locator("section.operation[data-route]")
      .evaluateAll((sections) => sections.map((s) => s.getAttribute("data-route")));
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
    await expect.poll(() => page.locator('#api-reference h2[id^="tag-"]').first().innerText()).toBe("Health");
    expect(problems).toEqual([]);
  });
});

/** On a phone the index is one tap away (the fixed "Index" link); on a desktop it is already beside the page. */
async function openIndex(page: Page) {
  const link = page.locator('a.to-index[href="#index"]');
  if (await link.isVisible()) await link.click();
}

type Document = { paths: Record<string, Record<string, unknown>>; webhooks: Record<string, { post: { parameters: { name: string }[] } }> };

describe.each([
  ["phone", PHONE],
  ["desktop", DESKTOP],
])("API reference as a person meets it on a %s", (label, viewport) => {
  it("explains how to verify a callback: every callback event with its signature headers, and a verification example", async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as Document;
    const events = Object.keys(document.webhooks);
    expect(events.length).toBeGreaterThan(2);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await page.goto(`${server.baseUrl}/docs`);
    expect(await page.locator("section.callback").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-event")))).toEqual(events);
    for (const event of events) {
      const headers = await page.locator(`section.callback[data-event="${event}"] ul.params > li > code:first-child`).allInnerTexts();
      expect(headers).toEqual(document.webhooks[event]!.post.parameters.map((p) => p.name));
      expect(headers).toEqual(expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature"]));
    }
    // The provider's inbound "Webhooks" section points merchants to the callbacks they receive.
    expect(await page.locator('section[aria-labelledby="tag-Webhooks"] a[href="#callbacks"]').count()).toBe(1);
    const example = await page.locator("#verify-callback pre").innerText();
    expect(example).toContain("createHmac");
    expect(example).toContain("timingSafeEqual");
    expect(example).toContain("webhook-signature");
    // Reached from the index.
    await openIndex(page);
    await page.locator('#index a[href="#verify-callback"]').click();
    await expect.poll(() => page.locator("#verify-callback").isVisible()).toBe(true);
    expect(page.url()).toMatch(/#verify-callback$/);
    expect(problems).toEqual([]);
  });

  it("names the repository's guides as such, never as a bare path or a link that would break", async () => {
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await page.goto(`${server.baseUrl}/docs`);
    const bare = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
      const found: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (/docs\/[\w-]+\.md/.test(node.textContent) && !node.parentElement.closest(".guide, .guides-note")) found.push(node.textContent);
      }
      return found;
    });
    expect(bare).toEqual([]);
    expect(await page.locator(".guide").count()).toBeGreaterThan(1);
    expect(await page.locator('a[href*="docs/"][href$=".md"]').count()).toBe(0);
    expect(await page.locator(".guides-note").innerText()).toMatch(/does not serve them/);
    expect(problems).toEqual([]);
  });

  it("keeps an index at hand anywhere on the page, shows a request example for each operation, and passes axe", async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as Document;
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await page.goto(`${server.baseUrl}/docs`);

    // A request example in every operation: curl with its method and path.
    const examples = await page.locator("section.operation[data-route]").evaluateAll((sections) =>
      sections.map((s: any) => ({
        route: s.getAttribute("data-route"),
        example: s.querySelector("pre.request-example")?.textContent ?? "",
      })),
    );
    expect(examples.map((e) => e.route).sort()).toEqual([...routes].sort());
    for (const { route, example } of examples) {
      const [method, path] = route!.split(" ");
      expect(example, route!).toMatch(
        new RegExp(`^curl -X ${method} "\\$BASE_URL${path!.replace(/\{[^}]+\}/g, "\\$[A-Z_]+").replace(/\//g, "\\/")}`),
      );
    }
    expect(examples.find((e) => e.route === "POST /api/age-verification/session")!.example).toMatch(
      /-H "X-API-Key: \$API_KEY"[\s\S]*-d '\{/,
    );

    // Deep in the page (the last operation), a way back to the index is on screen, and it leads to an operation.
    await page.locator("section.operation[data-route]").last().scrollIntoViewIfNeeded();
    const atHand = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const height = (globalThis as any).innerHeight;
      const onScreen = (el: any) => {
        if (!el) return false;
        const r = el.getBoundingClientRect();
        return r.height > 0 && r.bottom > 0 && r.top < height;
      };
      return onScreen(doc.getElementById("index")) || [...doc.querySelectorAll('a[href="#index"]')].some(onScreen);
    });
    expect(atHand).toBe(true);
    await openIndex(page);
    await page.locator('#index a[href="#getApiUsageSummary"]').click();
    expect(page.url()).toMatch(/#getApiUsageSummary$/);
    await expect.poll(() => page.locator("#getApiUsageSummary h3").isVisible()).toBe(true);

    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/api-reference-${label}.png` });
    expect(problems).toEqual([]);
  });
});
