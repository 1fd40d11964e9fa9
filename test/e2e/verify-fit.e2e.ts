// docs/end-user-apps.md: every screen of /verify fits a 320 px phone in each of the five
// languages (the document is never wider than the viewport; measured again at 390 and 1280 px) and
// passes axe with no serious or critical violation. One page per language walks the screens in order, reusing its account: sign-in and register
// tabs, the identity form (with its errors), a "consider" check and its retry, the identity verified and
// ready to answer, approved, already answered, under age, declined, passkey required, the digital-ID step,
// a wrong nonce, a malformed link, and a test session's chooser and results. The expired screens need a
// server with short sessions: verify-expired.e2e.ts.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousViolations } from "./axe";
import { ARTIFACTS } from "./browser";
import { submitIdentityByIds } from "./end-user";
import { api, birthDateYearsAgo, openSession, uniqueEmail, verifyLink } from "./merchant";
import { useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();
const LANGUAGES = ["en", "fr", "de", "es", "it"] as const;
const WIDTH = 320;
const OTHER_WIDTHS = [390, 1280];

/** The widest of the document and the body: more than the viewport means the page scrolls sideways. */
const pageWidth = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    return Math.max(doc.documentElement.scrollWidth, doc.body.scrollWidth) as number;
  });

/** The elements that reach past the right edge, for the failure message. */
const overflowing = (page: Page, width: number) =>
  page.evaluate((limit) => {
    const doc = (globalThis as any).document;
    return (Array.from(doc.querySelectorAll("body *")) as any[])
      .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 4)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : ""}`,
      );
  }, width);

describe.each(LANGUAGES)("/verify at 320 px in %s", (language) => {
  it("no screen is wider than the viewport, and axe finds nothing serious on any", async () => {
    const base = env.server.baseUrl;
    // Each language is another person at another address: the five walks, one after the other in under a
    // minute, would otherwise share one address's session-link limit (docs/limits.md, 120 a minute).
    const address = `198.51.100.${LANGUAGES.indexOf(language) + 1}`;
    const context = await env.browser.newContext({
      viewport: { width: WIDTH, height: 700 },
      locale: language,
      extraHTTPHeaders: { "cf-connecting-ip": address },
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    const findings: string[] = [];
    /** Measures and scans the screen as it is now; every finding is kept, so one run names them all. */
    async function check(screen: string) {
      const width = await pageWidth(page);
      if (width > WIDTH) findings.push(`${screen}: ${width} px wide (${(await overflowing(page, WIDTH)).join(", ")})`);
      for (const violation of await seriousViolations(page)) findings.push(`${screen}: ${violation}`);
      await page.screenshot({ path: `${ARTIFACTS}/fit-${language}-${screen}.png`, fullPage: true });
      // The same screen on a larger phone and a desktop: measured only (axe runs at 320 here, and on both
      // viewports in the other /verify files).
      for (const wider of OTHER_WIDTHS) {
        await page.setViewportSize({ width: wider, height: 800 });
        const measured = await pageWidth(page);
        if (measured > wider)
          findings.push(`${screen} at ${wider} px: ${measured} px wide (${(await overflowing(page, wider)).join(", ")})`);
      }
      await page.setViewportSize({ width: WIDTH, height: 700 });
    }
    const open = async (extra: Record<string, unknown> = {}, age = 18) => {
      const session = await openSession(base, env.merchant.apiKey, age, { locale: language, ...extra });
      await page.goto(verifyLink(base, session));
      return session;
    };
    const visible = (selector: string) => page.locator(selector).waitFor({ state: "visible" });

    // Signed out: the first screen with the register tab, then the sign-in tab.
    await open();
    await visible("#step-account");
    await check("register");
    await page.locator("#tab-login").click();
    await visible("#panel-login");
    await check("sign-in");
    await page.locator("#tab-register").click();

    // Signed in ("Use another account" in the top bar): the identity form, and its errors.
    await page.locator("#register-email").fill(uniqueEmail(`fit-${language}`));
    await page.locator("#register-password").fill("person-password-1");
    await page.locator("#register-form button[type=submit]").click();
    await visible("#applicant-form");
    await visible("#switch-account");
    await check("identity");
    await page.locator("#applicant-form button[type=submit]").click();
    await visible("#applicant-dob-error");
    await check("identity-errors");

    // A "consider" check, then its retry with "clear".
    await submitIdentityByIds(page, birthDateYearsAgo(30), "consider");
    await visible("#kyc-notice");
    await check("identity-retry");
    await page.locator("#sandbox-result").selectOption("clear");
    await page.locator("#sandbox-form button[type=submit]").click();

    // Verified: ready to answer (with the passkey offer), then approved, then the same link again.
    await visible("#step-decide");
    await visible("#approve");
    await check("ready");
    await page.locator("#approve").click();
    await visible('#step-result[data-result="approved"]');
    await check("approved");
    await page.reload();
    await visible('#step-result[data-result="used"]');
    await check("already-answered");

    // Under the age asked: the answer step, then declined.
    await open({}, 40);
    await visible("#decide-underage");
    await check("under-age");
    await page.locator("#decline").click();
    await visible('#step-result[data-result="declined"]');
    await check("declined");

    // A merchant that requires a passkey, from an account without one.
    await open({ require_passkey: true });
    await visible("#passkey-required");
    await check("passkey-required");

    // The first screen's "Not now" (later), then declining and its confirmation.
    await open();
    await visible("#step-decide");
    await page.locator("#switch-account").click();
    await visible("#step-account");
    await page.locator("#not-now").click();
    await visible("#step-later");
    await check("later-back");
    await page.locator("#later-back").click();
    await page.locator("#intro-decline").click();
    await visible("#step-decline");
    await check("decline-confirm");

    // A request that also takes a digital ID: the wallet's line above the account path.
    await open({ accepted_assurance: ["DIGITAL_ID_VERIFIED", "KYC_VERIFIED"] });
    await visible("#step-wallet");
    await check("wallet");

    // Broken links: a wrong nonce (found by the page) and a malformed link (found by the server).
    const session = await openSession(base, env.merchant.apiKey, 18, { locale: language });
    await page.goto(verifyLink(base, { session_id: session.session_id, nonce: "not-the-nonce" }));
    await visible('#step-result[data-result="invalid"]');
    await check("wrong-nonce");
    await page.goto(`${base}/verify?session_id=broken&lang=${language}`);
    await visible('[data-result="invalid"]');
    await check("malformed-link");

    // A test session: the outcome chooser, then each kind of result.
    const testKey = await api<{ apiKey: string }>(base, "POST", "/api/keys", {
      token: env.merchant.token,
      body: { name: `fit ${language}`, mode: "test" },
    });
    for (const outcome of ["APPROVED", "DENIED_UNDER_AGE", "DENIED_REFUSED"] as const) {
      const test = await openSession(base, testKey.body.data.apiKey, 18, { locale: language });
      await page.goto(verifyLink(base, test));
      await visible("#step-test");
      if (outcome === "APPROVED") await check("test-chooser");
      await page.locator(`[data-test-outcome="${outcome}"]`).click();
      await visible("#step-result");
      await check(`test-${outcome.toLowerCase()}`);
    }

    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
