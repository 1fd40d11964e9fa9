// The console's screens before the keys fit the viewport at 320, 390 and 1280 px (docs/end-user-apps.md): the email
// prompt and the personal-account screen. A file of its own: its two registrations would pass the
// per-address registration limit (10 a minute) on console-fit.e2e.ts's server.
import { describe, expect, it } from "vitest";
import { watchedPage } from "./browser";
import { consoleHarness, DESKTOP, fitsViewport, NARROW, openSignedIn, PHONE } from "./console-helpers";
import { api, uniqueEmail } from "./merchant";

const harness = consoleHarness("e2e-fit-first");

describe("console screens before the keys", () => {
  it("confirm your email and the personal-account screen fit at 320, 390 and 1280 px", async () => {
    const { server, browser } = harness;
    const register = async (userType: string, extra: Record<string, string>) =>
      (
        await api<{ token: string }>(server.baseUrl, "POST", "/api/auth/register", {
          body: { email: uniqueEmail(userType.toLowerCase()), password: "merchant-password-1", userType, ...extra },
        })
      ).body.data.token;
    const unverified = await register("BUSINESS", { companyName: "A company with a very long name indeed, Ltd" });
    const personal = await register("PERSONAL", { firstName: "Ada", lastName: "Lovelace" });
    const { page, problems } = await watchedPage(browser);
    for (const [label, viewport] of [
      ["320 px", NARROW],
      ["390 px", PHONE],
      ["1280 px", DESKTOP],
    ] as const) {
      await page.setViewportSize(viewport);
      await openSignedIn(page, server.baseUrl, unverified);
      await page.locator("#console-unverified").waitFor({ state: "visible" });
      await fitsViewport(page, `confirm your email (${label})`);
      await openSignedIn(page, server.baseUrl, personal);
      await page.locator("#console-personal").waitFor({ state: "visible" });
      await fitsViewport(page, `personal account (${label})`);
    }
    expect(problems).toEqual([]);
  });
});
