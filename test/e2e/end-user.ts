// The end user's side of the browser tests: the /verify page's account and identity forms, and a person
// verified through the API (as /verify does it) for the pages that follow.
import type { Page } from "playwright-core";
import { api, birthDateYearsAgo, uniqueAddress, uniqueEmail } from "./merchant";

/**
 * A personal account whose identity is verified through the sandbox, `years` old (30 unless given),
 * registered from an address of its own as each person's would be (registrations are limited per address).
 */
export async function verifiedPerson(baseUrl: string, password: string, options: { locale?: string; years?: number } = {}) {
  const email = uniqueEmail("me");
  const registered = await api<{ token: string }>(baseUrl, "POST", "/api/auth/register", {
    address: uniqueAddress(),
    body: { email, password, userType: "PERSONAL", locale: options.locale ?? "en" },
  });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
  const token = registered.body.data.token;
  const applicant = await api(baseUrl, "POST", "/api/kyc/create-applicant", {
    token,
    body: { firstName: "Alex", lastName: "Morgan", dob: birthDateYearsAgo(options.years ?? 30) },
  });
  if (applicant.status !== 201) throw new Error(`create-applicant failed: ${applicant.status}`);
  const checked = await api(baseUrl, "POST", "/api/kyc/sandbox/complete", { token, body: { result: "clear" } });
  if (checked.status !== 200) throw new Error(`sandbox check failed: ${checked.status}`);
  return { email, token };
}

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
  await fillDateOfBirth(page, dob);
}

/** Types a YYYY-MM-DD date into the identity form's day, month and year, found by their labels in `labels`' language. */
export async function fillDateOfBirth(
  page: Page,
  iso: string,
  labels = { group: "Date of birth", day: "Day", month: "Month", year: "Year" },
) {
  const [year, month, day] = iso.split("-") as [string, string, string];
  const group = page.getByRole("group", { name: labels.group });
  await group.getByLabel(labels.day, { exact: true }).fill(String(Number(day)));
  await group.getByLabel(labels.month, { exact: true }).fill(String(Number(month)));
  await group.getByLabel(labels.year, { exact: true }).fill(year);
}

/**
 * Sends the identity form filled through its fields' ids, which are the same in every language, with the
 * sandbox's outcome chosen. The long last name is the one the 320 px checks measure.
 */
export async function submitIdentityByIds(page: Page, dob: string, result: "clear" | "consider") {
  await page.locator("#applicant-firstName").fill("Alex");
  await page.locator("#applicant-lastName").fill("Morgan-Fitzgerald-Oyelaran");
  const [year, month, day] = dob.split("-") as [string, string, string];
  await page.locator("#applicant-dob-day").fill(day);
  await page.locator("#applicant-dob-month").fill(month);
  await page.locator("#applicant-dob-year").fill(year);
  await page.locator("#applicant-result").selectOption(result);
  await page.locator("#applicant-form button[type=submit]").click();
}
