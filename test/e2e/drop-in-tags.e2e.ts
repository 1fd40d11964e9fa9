// The drop-in from any script tag, under any policy (docs/design.md): `<script src>` without type="module"
// renders the element as `<script type="module" src>` does (an ESM bundle threw "Unexpected token
// 'export'" and left a blank space); a page whose Content-Security-Policy lets the script in but not its
// status reads shows the link and says why, instead of a QR code waiting for ever; a page that lets no
// script in keeps the merchant's own fallback link. The answer of a test session says it is a test, not
// "Age verified". The merchant's page is served from another origin (checkout-site.mjs).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCheckoutSite, type CheckoutSite } from "./checkout-site.mjs";
import { ARTIFACTS } from "./browser";
import { seriousViolations } from "./axe";
import { api } from "./merchant";
import { openPage, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();
let shop: CheckoutSite;
beforeAll(async () => {
  shop = await startCheckoutSite();
});
afterAll(async () => {
  await shop?.close();
});
let pages = 0;

/** A session opened with a test key (livemode false), and its link. */
async function testSession() {
  const key = await api<{ apiKey: string }>(env.server.baseUrl, "POST", "/api/keys", {
    token: env.merchant.token,
    body: { name: "drop-in test", mode: "test" },
  });
  expect(key.status).toBe(201);
  const opened = await api<{ session_id: string; nonce: string; verification_url: string }>(
    env.server.baseUrl,
    "POST",
    "/api/age-verification/session",
    {
      apiKey: key.body.data.apiKey,
      body: { age_required: 18, callback_url: "http://localhost:9/age-callback" },
    },
  );
  expect(opened.status).toBe(201);
  return opened.body.data;
}

/** The merchant's checkout page at SHOP, with its policy and its script tag. */
async function checkout(page: Page, options: { link: string; tag: "classic" | "module"; policy: string }) {
  const script = `${env.server.baseUrl}/assets/age-verification.browser.js`;
  const tag = options.tag === "module" ? `<script type="module" src="${script}"></script>` : `<script src="${script}"></script>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title><link rel="icon" href="data:,">${tag}</head><body><main><h1>Checkout</h1>
<age-verification url="${options.link}"><a href="${options.link}">Verify your age on the age-check page</a></age-verification></main></body></html>`;
  const path = `/checkout-${++pages}`;
  shop.set(path, html, options.policy);
  await page.goto(`${shop.origin}${path}`);
}

const policy = (connect: string) =>
  `default-src 'none'; script-src 'self' ${env.server.baseUrl}; connect-src 'self' ${connect}; style-src 'self'; img-src data:; base-uri 'none'; form-action 'self'`;

const answerAsTester = (session: { session_id: string; nonce: string }, outcome: string) =>
  api(env.server.baseUrl, "POST", `/api/age-verification/session/${session.session_id}/test-outcome`, {
    body: { nonce: session.nonce, outcome },
  });

const resultText = (page: Page) => page.locator('age-verification [role="status"]').textContent();

describe("the drop-in's script tags", () => {
  for (const tag of ["classic", "module"] as const) {
    it(`a ${tag} <script src> renders the element; a test session's answer says it is a test`, async () => {
      const session = await testSession();
      const { page, problems } = await openPage(env.browser, "phone");
      await checkout(page, { link: session.verification_url, tag, policy: policy(env.server.baseUrl) });
      const button = page.locator("age-verification").getByRole("link", { name: "Verify my age" });
      await button.waitFor({ state: "visible" });
      expect(await button.getAttribute("href")).toBe(session.verification_url);
      // The merchant's fallback link, in the element's light DOM, is not shown once the element runs.
      expect(await page.getByRole("link", { name: "Verify your age on the age-check page" }).isVisible()).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      expect((await answerAsTester(session, "APPROVED")).status).toBe(200);
      await expect.poll(() => resultText(page), { timeout: 10_000 }).toBe("Test session: approved (nothing was verified)");
      await page.screenshot({ path: `${ARTIFACTS}/drop-in-${tag}-test-approved.png` });
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it("a strict policy that lets the script in but not its reads: the link, and why", async () => {
    const session = await testSession();
    const { page } = await openPage(env.browser, "desktop");
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await checkout(page, { link: session.verification_url, tag: "classic", policy: policy("") });
    await expect
      .poll(() => resultText(page), { timeout: 10_000 })
      .toBe("This page cannot follow the answer here. Continue with the link; the website checks your answer itself.");
    const button = page.locator("age-verification").getByRole("link", { name: "Verify my age" });
    expect(await button.isVisible()).toBe(true);
    expect(await button.getAttribute("href")).toBe(session.verification_url);
    // No QR code waiting for an answer that cannot arrive.
    expect(await page.locator("age-verification svg").count()).toBe(0);
    expect(
      errors.some(
        (text) => text.includes("<age-verification>: this page's Content-Security-Policy blocks") && text.includes("connect-src"),
      ),
    ).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/drop-in-blocked-1280.png` });
    await page.context().close();
  });

  it("a policy that lets no script in: the merchant's fallback link stays", async () => {
    const session = await testSession();
    const { page } = await openPage(env.browser, "phone");
    await checkout(page, {
      link: session.verification_url,
      tag: "classic",
      policy: "default-src 'none'; script-src 'self'; img-src data:; base-uri 'none'",
    });
    const fallback = page.getByRole("link", { name: "Verify your age on the age-check page" });
    await fallback.waitFor({ state: "visible" });
    expect(await fallback.getAttribute("href")).toBe(session.verification_url);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
