// Double-blind approvals on the /verify page in a real browser (docs/double-blind.md): a person signs in and is
// verified, the page stocks anonymous age tokens in IndexedDB (blinded in the browser), a double-blind
// request is approved from the stock with no Authorization header, the merchant's poll shows
// ANONYMOUS_TOKEN, and "Use another account" empties the stock.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, watchedPage } from "./browser";
import { fillDateOfBirth } from "./end-user";
import { birthDateYearsAgo, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { expectAccessible, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();

/** Tokens in the page's stock, read through the page's own script. */
const stocked = (page: Page) => page.evaluate(() => (globalThis as any).AVS_AGE_TOKENS.count() as Promise<number>);

describe("double-blind approval from the page's token stock", () => {
  it("stocks up once verified, approves a double-blind request anonymously, and 'Use another account' clears the stock", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { double_blind: true });
    const { page, problems } = await watchedPage(env.browser);
    const completes: { authorization: string | undefined; body: any }[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/age-verification/session/") && request.url().endsWith("/complete")) completes.push({ authorization: request.headers()["authorization"], body: request.postDataJSON() });
    });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByLabel("Email").first().fill(uniqueEmail("blind"));
    await page.getByLabel("Password").first().fill("person-password-1");
    await page.getByRole("button", { name: "Create account and continue" }).click();
    await page.getByLabel("First name").fill("Alex");
    await page.getByLabel("Last name").fill("Morgan");
    await fillDateOfBirth(page, birthDateYearsAgo(30));
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#step-decide").waitFor({ state: "visible" });

    // Stocked in the background once verified: a batch of five for each threshold the verified age is
    // known to meet (this request's 18; not 21, which would have to be asked for and could be refused).
    await expect.poll(() => stocked(page), { timeout: 30_000 }).toBe(5);
    await expect(page.locator("#decide-anonymous").isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/verify-double-blind-1-decision.png`, fullPage: true });

    await page.getByRole("button", { name: "Send my answer" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/verify-double-blind-2-approved.png`, fullPage: true });
    // The answer carried a token and no sign-in; the stock gave one up (the 18 one: the least that meets the request).
    expect(completes).toHaveLength(1);
    expect(completes[0]!.authorization).toBeUndefined();
    expect(completes[0]!.body).toMatchObject({ consent: true, age_token: expect.stringMatching(/^[A-Za-z0-9_-]+$/) });
    expect(await stocked(page)).toBe(4);
    expect(await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).toMatchObject({ status: "APPROVED", assurance: "KYC_VERIFIED", holder_binding: "ANONYMOUS_TOKEN" });

    // Still signed in, another request; "Use another account" forgets the person, and the stock with them.
    const next = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { double_blind: true });
    await page.goto(verifyLink(env.server.baseUrl, next));
    await page.locator("#step-decide").waitFor({ state: "visible" });
    expect(await stocked(page)).toBe(4);
    await page.locator("#switch-account").click();
    await page.locator("#step-account").waitFor({ state: "visible" });
    await expect.poll(() => stocked(page)).toBe(0);
    await expectAccessible(page);
    expect(await poll(env.server.baseUrl, env.merchant.apiKey, next.session_id)).toMatchObject({ status: "PENDING" });
    expect(problems).toEqual([]);
  });
});
