// A pending link whose merchant deleted its account (docs/end-user-apps.md, "A link no longer valid"): the
// page says the link is no longer valid, in the five languages, whether it is opened afterwards or was
// already on screen; not "expired" and not "this link is not valid" (a broken or mistyped link), and
// nothing about the website or why. axe on the screen.
import { describe, expect, it } from "vitest";
import { de } from "../../src/web/i18n/de";
import { en, type Catalogue } from "../../src/web/i18n/en";
import { es } from "../../src/web/i18n/es";
import { fr } from "../../src/web/i18n/fr";
import { it as italian } from "../../src/web/i18n/it";
import { ARTIFACTS } from "./browser";
import { api, merchantWithKey, openSession, verifyLink } from "./merchant";
import { expectAccessible, openPage, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();
const LANGUAGES: [string, Catalogue][] = [
  ["en", en],
  ["fr", fr],
  ["de", de],
  ["es", es],
  ["it", italian],
];
const COMPANY = "Vanishing Vintners";

/** A merchant of its own, with a pending session, then its account deleted through the API. */
async function merchantWithPendingSession() {
  const merchant = await merchantWithKey(env.server.baseUrl, COMPANY);
  const session = await openSession(env.server.baseUrl, merchant.apiKey, 18);
  return {
    session,
    deleteAccount: async () =>
      expect(
        (
          await api(env.server.baseUrl, "DELETE", "/api/users/account", {
            token: merchant.token,
            body: { password: "merchant-password-1" },
          })
        ).status,
      ).toBe(200),
  };
}

/** The withdrawn link's own 410s (the page's read of it) are expected; anything else is a problem. */
const unexpected = (problems: string[]) => problems.filter((p) => !p.includes("410"));

describe("a pending link whose merchant deleted its account", () => {
  it.each(LANGUAGES)(
    "opened afterwards, says in %s that the link is no longer valid, with no way back to the website",
    async (language, catalogue) => {
      const { session, deleteAccount } = await merchantWithPendingSession();
      await deleteAccount();
      const { page, problems } = await openPage(env.browser, "phone");
      await page.goto(`${verifyLink(env.server.baseUrl, session)}&lang=${language}`);
      await page.locator('#step-result[data-result="withdrawn"]').waitFor({ state: "visible" });
      await expect(page.locator("#result-title").textContent()).resolves.toBe(catalogue["result.withdrawn.title"]);
      await expect(page.locator("#result-text").textContent()).resolves.toBe(catalogue["result.withdrawn.text"]);
      expect(catalogue["result.withdrawn.title"]).not.toBe(catalogue["result.expired.title"]);
      expect(catalogue["result.withdrawn.title"]).not.toBe(catalogue["result.invalid.title"]);
      expect(await page.locator("#result-return").isVisible()).toBe(false);
      expect(await page.locator("#result-close").isVisible()).toBe(true);
      expect(await page.locator("main").textContent()).not.toContain(COMPANY);
      await expectAccessible(page);
      await page.screenshot({ path: `${ARTIFACTS}/verify-withdrawn-${language}.png`, fullPage: true });
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    },
  );

  it("already on screen when the account is deleted, the next step says the same", async () => {
    const { session, deleteAccount } = await merchantWithPendingSession();
    const { page, problems } = await openPage(env.browser, "desktop");
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.locator("#step-intro").waitFor({ state: "visible" });
    await expect(page.locator("#intro-title").textContent()).resolves.toContain(COMPANY);
    await deleteAccount();
    await page.getByRole("button", { name: "Decline this request" }).click();
    await page.getByRole("button", { name: "Yes, decline" }).click();
    await page.locator('#step-result[data-result="withdrawn"]').waitFor({ state: "visible" });
    await expect(page.locator("#result-title").textContent()).resolves.toBe(en["result.withdrawn.title"]);
    expect(await page.locator("#result-return").isVisible()).toBe(false);
    await expectAccessible(page);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });
});
