// The end user's verification app in a real browser (docs/end-user-apps.md): a merchant opens a session through the
// API, the end user opens the link, creates an account, verifies with the sandbox and answers; the
// merchant's poll shows the outcome.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, STRICT_CSP, watchedPage } from "./browser";
import { fillDateOfBirth } from "./end-user";
import { birthDateYearsAgo, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { focusedId, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();

async function registerAndVerify(page: Page, shot: string, dob: string) {
  await expect.poll(() => page.locator("#step-account").isVisible()).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/${shot}-1-account.png`, fullPage: true });
  await page.getByLabel("Email").first().fill(uniqueEmail("person"));
  await page.getByLabel("Password").first().fill("person-password-1");
  await page.getByRole("button", { name: "Create account and continue" }).click();

  await page.locator("#step-kyc").waitFor({ state: "visible" });
  await expect(page.locator("#request-title").textContent()).resolves.toBe("Cellar & Co asks you to confirm that you are at least 18");
  // Each new step takes the focus on its heading (the hidden form that had it would drop it to <body>).
  await expect.poll(() => focusedId(page)).toBe("request-title");
  await expect(page.locator("#countdown").textContent()).resolves.toMatch(/^Expires in \d+:\d\d$/);
  await page.getByLabel("First name").fill("Alex");
  await page.getByLabel("Last name").fill("Morgan");
  await fillDateOfBirth(page, dob);
  await page.screenshot({ path: `${ARTIFACTS}/${shot}-2-identity.png`, fullPage: true });
  await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();

  await page.locator("#step-decide").waitFor({ state: "visible" });
  await expect.poll(() => focusedId(page)).toBe("decide-title");
  await page.screenshot({ path: `${ARTIFACTS}/${shot}-3-decision.png`, fullPage: true });
}

describe("verification app", () => {
  it("an adult registers, verifies with the sandbox, approves, and the merchant's poll shows APPROVED", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await watchedPage(env.browser);
    const response = await page.goto(verifyLink(env.server.baseUrl, session));
    expect(response?.headers()["content-security-policy"]).toBe(STRICT_CSP);

    await registerAndVerify(page, "verify-adult", birthDateYearsAgo(30));
    await page.getByRole("button", { name: "Send my answer" }).click();

    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    await expect.poll(() => focusedId(page)).toBe("result-title");
    await expect(page.locator("#result-title").textContent()).resolves.toBe("You are verified");
    await expect(page.locator("#result-receipt").textContent()).resolves.toMatch(/^Receipt rcpt_/);
    await page.screenshot({ path: `${ARTIFACTS}/verify-adult-4-approved.png`, fullPage: true });

    const polled = await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id);
    expect(polled).toMatchObject({ status: "APPROVED", above_age_required: true });
    expect(problems).toEqual([]);
  });

  it("a verified person under the age is told so before answering, is offered only to decline, and the poll shows DENIED", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await watchedPage(env.browser);
    await page.goto(verifyLink(env.server.baseUrl, session));

    await registerAndVerify(page, "verify-minor", birthDateYearsAgo(16));
    await expect(page.locator("#decide-underage").textContent()).resolves.toBe(
      "Your verified date of birth shows you are under 18: you cannot confirm this request. You can decline it; Cellar & Co learns only that it was declined.",
    );
    // No button that would state something untrue: only declining is offered.
    expect(await page.getByRole("button", { name: "Send my answer" }).isVisible()).toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}/verify-minor-4-told.png`, fullPage: true });
    await page.getByRole("button", { name: "Decline" }).click();

    await page.locator('#step-result[data-result="declined"]').waitFor({ state: "visible" });
    const polled = await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id);
    expect(polled).toMatchObject({ status: "DENIED", above_age_required: false });
    expect(problems).toEqual([]);
  });

  it("an adult is offered 'Send my answer' and no under-age notice", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await watchedPage(env.browser);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await registerAndVerify(page, "verify-adult-offer", birthDateYearsAgo(18));
    expect(await page.getByRole("button", { name: "Send my answer" }).isVisible()).toBe(true);
    expect(await page.locator("#decide-underage").isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });

  it("an empty date of birth says it is required, and nothing is sent", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await watchedPage(env.browser);
    const applicants: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/kyc/create-applicant")) applicants.push(request.url());
    });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByLabel("Email").first().fill(uniqueEmail("nodob"));
    await page.getByLabel("Password").first().fill("person-password-1");
    await page.getByRole("button", { name: "Create account and continue" }).click();
    await page.getByLabel("First name").fill("Alex");
    await page.getByLabel("Last name").fill("Morgan");
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    const error = page.locator("#applicant-dob-error");
    await error.waitFor({ state: "visible" });
    await expect(error.textContent()).resolves.toBe("The date of birth is required.");
    await expect(page.locator("#applicant-dob-day").getAttribute("aria-invalid")).resolves.toBe("true");
    expect(applicants).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("a rejected identity check reads as such and can be retried; declining ends DENIED", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await watchedPage(env.browser);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByLabel("Email").first().fill(uniqueEmail("person"));
    await page.getByLabel("Password").first().fill("person-password-1");
    await page.getByRole("button", { name: "Create account and continue" }).click();
    await page.getByLabel("First name").fill("Sam");
    await page.getByLabel("Last name").fill("Rivera");
    await fillDateOfBirth(page, birthDateYearsAgo(40));
    await page.locator("#applicant-result").selectOption("consider");
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();

    await page.locator("#kyc-notice").waitFor({ state: "visible" });
    await expect(page.locator("#kyc-notice").textContent()).resolves.toContain("We could not verify your identity");
    await page.screenshot({ path: `${ARTIFACTS}/verify-kyc-rejected.png`, fullPage: true });
    await page.getByRole("button", { name: "Complete the sandbox check" }).click();

    await page.locator("#step-decide").waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Decline" }).click();
    await page.locator('#step-result[data-result="declined"]').waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/verify-declined.png`, fullPage: true });
    expect(await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).toMatchObject({
      status: "DENIED",
      above_age_required: false,
    });
    expect(problems).toEqual([]);
  });

  it("a link whose nonce was changed shows the invalid-link screen at once, before any sign-in, and nothing is answered", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await watchedPage(env.browser);
    await page.goto(verifyLink(env.server.baseUrl, { session_id: session.session_id, nonce: "not-the-nonce" }));

    await page.locator('#step-result[data-result="invalid"]').waitFor({ state: "visible" });
    expect(await page.locator("#step-account").isVisible()).toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}/verify-invalid-link.png`, fullPage: true });
    expect((await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).status).toBe("PENDING");
    // The only error is the API's own 404 for the wrong nonce (and chromium's console line about it).
    expect(problems.filter((p) => !p.includes("/request") && !p.includes("/preview") && !p.includes("404"))).toEqual([]);
  });

  it("a device clock 31 minutes fast still counts down on the server's time, and both answers wait while one is sent", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await watchedPage(env.browser);
    await page.addInitScript(() => {
      const fast = 31 * 60 * 1000;
      const deviceNow = Date.now.bind(Date);
      Date.now = () => deviceNow() + fast;
    });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await registerAndVerify(page, "verify-fast-clock", birthDateYearsAgo(30));
    expect(await page.locator("#step-result").isVisible()).toBe(false);
    await expect(page.locator("#countdown").textContent()).resolves.toMatch(/^Expires in (29|30):\d\d$/);

    // The answer is held in flight: neither button can send a second one meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/complete$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Send my answer" }).click();
    await expect.poll(() => page.locator("#approve").isDisabled()).toBe(true);
    expect(await page.locator("#decline").isDisabled()).toBe(true);
    release();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect(await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).toMatchObject({ status: "APPROVED" });
    expect(problems).toEqual([]);
  });
});
