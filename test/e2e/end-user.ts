// The end user's side of the browser tests: the /verify page's account and identity forms.
import type { Page } from "playwright-core";
import { birthDateYearsAgo, uniqueEmail } from "./merchant";

/**
 * On /verify's account step: creates an account, then fills the identity form (an adult's date of
 * birth unless given), leaving the provider's button (sandbox or Onfido) to the caller.
 */
export async function signUpAndFillIdentity(page: Page, dob = birthDateYearsAgo(30)) {
  await page.getByLabel("Email").first().fill(uniqueEmail("person"));
  await page.getByLabel("Password").first().fill("person-password-1");
  await page.getByRole("button", { name: "Create account and continue" }).click();
  await page.locator("#step-kyc").waitFor({ state: "visible" });
  await page.getByLabel("First name").fill("Alex");
  await page.getByLabel("Last name").fill("Morgan");
  await page.getByLabel("Date of birth").fill(dob);
}
