// The merchant console as a person meets it (docs/end-user-apps.md): no screen wider than the viewport at 320, 390 and
// 1280 px; a rotated signing secret shown whole with its Copy button; the keys table's Live and Test
// pills, a Revoked pill on one line; and "Sending…" on a button whose request takes a moment.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, watchedPage } from "./browser";
import { seriousViolations } from "./axe";
import { consoleHarness, DESKTOP, fitsViewport, NARROW, openSignedIn, PHONE } from "./console-helpers";
import { api, merchantWithKey, openSession } from "./merchant";

const harness = consoleHarness("e2e-fit");

async function passesAxe(page: Page, screen: string) {
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });
}

/** Every control of the element lies inside the viewport, horizontally. */
async function controlsOnScreen(page: Page, selector: string, screen: string) {
  const off = await page.locator(selector).evaluateAll((nodes) => {
    const width = (globalThis as any).document.documentElement.clientWidth;
    return nodes
      .flatMap((node: any) => [...node.querySelectorAll("button, a, input, select, textarea")])
      .filter((el: any) => el.getClientRects().length > 0)
      .filter((el: any) => {
        const r = el.getBoundingClientRect();
        return r.left < -0.5 || r.right > width + 0.5;
      })
      .map((el: any) => el.getAttribute("aria-label") || el.id || el.textContent);
  });
  expect({ screen, off }).toEqual({ screen, off: [] });
}

describe.each([
  ["320 px", NARROW],
  ["390 px", PHONE],
  ["1280 px", DESKTOP],
])("console at %s", (_label, viewport) => {
  it("no screen is wider than the viewport; a rotated secret is shown whole with a Copy button", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const test = await api<{ apiKey: string }>(server.baseUrl, "POST", "/api/keys", {
      token: merchant.token,
      body: { name: "staging shop server", mode: "test" },
    });
    expect(test.status).toBe(201);
    await openSession(server.baseUrl, merchant.apiKey, 18, { reference: "order-2026-000123" });
    const declined = await openSession(server.baseUrl, merchant.apiKey, 21);
    expect(
      (
        await api(
          server.baseUrl,
          "POST",
          `/api/age-verification/session/${declined.session_id}/decline?nonce=${encodeURIComponent(declined.nonce)}`,
        )
      ).status,
    ).toBe(200);

    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await page.goto(`${server.baseUrl}/console`);
    await page.locator("#console-auth").waitFor({ state: "visible" });
    await fitsViewport(page, "sign in");
    await page.getByRole("tab", { name: "Create a business account" }).click();
    await fitsViewport(page, "create an account");
    await page.getByRole("tab", { name: "Sign in" }).click();
    await page.getByText("Forgot your password?").click();
    await page.locator("#forgot-email").waitFor({ state: "visible" });
    await fitsViewport(page, "forgot password");

    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").nth(1).waitFor();
    await fitsViewport(page, "keys");
    await controlsOnScreen(page, "#keys-table", "keys");
    await page.getByRole("button", { name: "Revoke staging shop server" }).click();
    await page.locator("#confirm-dialog").waitFor({ state: "visible" });
    await fitsViewport(page, "revoke confirmation");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.locator("#create-key-name").fill("a key with a rather long descriptive name");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.locator("#new-key").waitFor({ state: "visible" });
    await fitsViewport(page, "new key");
    await controlsOnScreen(page, "#new-key", "new key");
    await page.getByRole("button", { name: "I have stored them" }).click();

    // The rotated secret: whole on screen (nothing scrolled out of its box) and copied by its own button.
    await page.getByRole("button", { name: "Callbacks of e2e" }).click();
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.locator("#confirm-yes").click();
    await page.locator("#rotated").waitFor({ state: "visible" });
    await fitsViewport(page, "rotated secret");
    await controlsOnScreen(page, "#key-callbacks", "rotated secret");
    const box = await page
      .locator("#rotated-secret")
      .evaluate((el: any) => ({ value: el.value, scroll: [el.scrollWidth, el.scrollHeight], client: [el.clientWidth, el.clientHeight] }));
    expect(box.value).toMatch(/^whsec_/);
    expect(box.scroll[0]).toBeLessThanOrEqual(box.client[0]);
    expect(box.scroll[1]).toBeLessThanOrEqual(box.client[1]);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy the new signing secret" }).click();
    await expect.poll(() => page.locator("#rotated-copy-status").innerText()).toBe("Copied to the clipboard.");
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(box.value);
    await passesAxe(page, "rotated secret");
    await page.getByRole("button", { name: "Close" }).first().click();

    await page.getByRole("tab", { name: "Usage" }).click();
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(2);
    await fitsViewport(page, "usage");
    await controlsOnScreen(page, "#section-usage", "usage");
    await page.getByRole("button", { name: `Callbacks of ${declined.session_id}` }).click();
    await page.locator("#session-callbacks").waitFor({ state: "visible" });
    await fitsViewport(page, "session callbacks");
    await controlsOnScreen(page, "#session-callbacks", "session callbacks");
    await page.screenshot({ path: `${ARTIFACTS}/console-fit-${viewport.width}-usage.png`, fullPage: true });

    await page.getByRole("tab", { name: "Account" }).click();
    await page.locator("#section-account").waitFor({ state: "visible" });
    await fitsViewport(page, "account");
    await page.getByRole("button", { name: "Delete account" }).click();
    await fitsViewport(page, "delete confirmation");
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(problems).toEqual([]);
  });

  it("the keys table: Live and Test are both pills, Revoked stays one line, no word breaks", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    expect(
      (await api(server.baseUrl, "POST", "/api/keys", { token: merchant.token, body: { name: "staging", mode: "test" } })).status,
    ).toBe(201);
    const old = await api<{ key: { id: string } }>(server.baseUrl, "POST", "/api/keys", {
      token: merchant.token,
      body: { name: "old server" },
    });
    expect((await api(server.baseUrl, "DELETE", `/api/keys/${old.body.data.key.id}`, { token: merchant.token })).status).toBe(200);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").nth(2).waitFor();

    const modes = await page.locator("#keys-table tbody .pill.mode").allInnerTexts();
    expect(modes.sort()).toEqual(["Live", "Live", "Test"]);
    // Every pill is one line of text: one box, no taller than a line.
    const pills = await page.locator("#keys-table tbody .pill").evaluateAll((nodes) =>
      nodes.map((n: any) => ({
        text: n.textContent,
        boxes: n.getClientRects().length,
        tall: n.getBoundingClientRect().height > parseFloat((globalThis as any).getComputedStyle(n).lineHeight) * 1.5,
      })),
    );
    expect(pills.filter((p) => p.boxes !== 1 || p.tall)).toEqual([]);
    expect(pills.map((p) => p.text)).toContain("Revoked");
    // Each cell's words stay whole: no cell is narrower than its longest word.
    const broken = await page
      .locator("#keys-table tbody td")
      .evaluateAll((cells) =>
        cells
          .filter((cell: any) => cell.getClientRects().length > 0 && cell.scrollWidth > cell.clientWidth + 1)
          .map((cell: any) => cell.textContent),
      );
    expect(broken).toEqual([]);
    await fitsViewport(page, "keys with a revoked key");
    await page.screenshot({ path: `${ARTIFACTS}/console-fit-${viewport.width}-keys.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  it("a button whose request takes a moment says Sending…, then its own words again", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").first().waitFor();
    // Hold the key creation for two seconds, as a slow network would.
    await page.route("**/api/keys", async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
    await page.locator("#create-key-name").fill("slow key");
    const button = page.locator("#create-key-form button[type=submit]");
    await button.click();
    await expect.poll(() => button.innerText(), { timeout: 1800 }).toBe("Sending…");
    expect(await button.getAttribute("aria-busy")).toBe("true");
    await page.locator("#new-key").waitFor({ state: "visible" });
    expect(await button.innerText()).toBe("Create key");
    expect(problems).toEqual([]);
  });
});
