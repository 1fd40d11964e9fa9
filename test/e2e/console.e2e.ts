// The merchant console in a real browser (docs/end-user-apps.md): sign up as a business, confirm the email through
// the development outbox, create a key (shown once), see API-opened sessions in the log and the
// chart, download the CSV, revoke the key and see the merchant API refuse it.
import { describe, expect, it } from "vitest";
import { ARTIFACTS, STRICT_CSP, watchedPage } from "./browser";
import { consoleHarness, DESKTOP, openSignedIn } from "./console-helpers";
import { api, mailedLink, merchantWithKey, openSession, uniqueEmail } from "./merchant";

const harness = consoleHarness();

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

describe("merchant console", () => {
  it("a business signs up, confirms its email, manages a key and sees its sessions, chart and CSV", async () => {
    const { server, browser } = harness;
    const { page, problems } = await watchedPage(browser, { acceptDownloads: true });
    await page.setViewportSize(DESKTOP);
    const response = await page.goto(`${server.baseUrl}/console`);
    expect(response?.headers()["content-security-policy"]).toBe(STRICT_CSP);
    await page.locator("#console-auth").waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/console-1-sign-in.png`, fullPage: true });

    // Sign up, then the email prompt.
    const email = uniqueEmail("shop");
    await page.getByRole("tab", { name: "Create a business account" }).click();
    await page.locator("#signup-companyName").fill("Cellar & Co");
    await page.getByLabel("Work email").fill(email);
    await page.locator("#signup-password").fill("merchant-password-1");
    await page.getByRole("button", { name: "Create business account" }).click();
    await page.locator("#console-unverified").waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/console-2-confirm-email.png`, fullPage: true });

    // The link from the development outbox, opened in the same tab.
    await page.goto(await mailedLink(server.baseUrl, email));
    await expect.poll(() => page.locator("#account-status").textContent()).toContain("is confirmed");
    expect(page.url()).not.toContain("token=");
    await page.screenshot({ path: `${ARTIFACTS}/console-3-email-confirmed.png`, fullPage: true });
    await page.getByRole("link", { name: "Open the merchant console" }).click();

    // Create a key: both secrets are shown once.
    await page.locator("#section-keys").waitFor({ state: "visible" });
    await page.locator("#create-key-name").fill("production server");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.locator("#new-key").waitFor({ state: "visible" });
    const apiKey = await page.locator("#new-api-key").inputValue();
    expect(apiKey).toMatch(/^svc_sk_/);
    expect(await page.locator("#new-signing-secret").inputValue()).toMatch(/^whsec_/);
    // The next step: a session opened with this deployment's address, the key named by its prefix.
    const curl = await page.locator("#new-key-curl").textContent();
    expect(curl).toContain(`curl -X POST ${server.baseUrl}/api/age-verification/session`);
    expect(curl).toContain(`AGE_API_KEY='${apiKey.slice(0, 16)}`);
    await page.screenshot({ path: `${ARTIFACTS}/console-4-key-created.png`, fullPage: true });

    await page.reload();
    await page.locator("#keys-table tbody tr").first().waitFor();
    expect(await page.locator("#new-key").isVisible()).toBe(false);
    expect(await page.content()).not.toContain(apiKey);
    await expect(page.locator("#keys-table tbody tr td").nth(2).textContent()).resolves.toBe(`${apiKey.slice(0, 16)}…`);

    // Two sessions through the merchant API, then the usage section.
    await openSession(server.baseUrl, apiKey, 18);
    await openSession(server.baseUrl, apiKey, 21);
    await page.getByRole("tab", { name: "Usage" }).click();
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(2);
    await expect.poll(() => page.locator("#chart").getAttribute("data-sessions")).toBe("2");
    await expect(page.locator("#chart rect").count()).resolves.toBeGreaterThan(0);
    await expect(page.locator("#stat-total").textContent()).resolves.toBe("2");
    await expect(page.locator("#stat-pending").textContent()).resolves.toBe("2");
    await page.screenshot({ path: `${ARTIFACTS}/console-5-usage.png`, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^sessions-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-live\.csv$/);
    const csv = (await readAll(await download.createReadStream())).trim().split("\r\n");
    expect(csv[0]).toBe(
      "session_id,key_id,status,age_required,above_age_required,created_at,resolved_at,expires_at,livemode,reference,metadata,key_name,assurance,holder_binding,denial_reason,accepted_assurance,double_blind",
    );
    expect(csv.length - 1).toBe(2);

    // Revoke with confirmation; the merchant API refuses the key on its next request.
    await page.getByRole("tab", { name: "API keys" }).click();
    await page.getByRole("button", { name: "Revoke production server" }).click();
    await page.locator("#confirm-dialog").waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/console-6-revoke-confirm.png`, fullPage: true });
    await page.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(() => page.locator("#keys-table tbody tr").first().locator(".pill").nth(1).textContent()).toMatch(/^Revoked/);
    await page.screenshot({ path: `${ARTIFACTS}/console-7-revoked.png`, fullPage: true });
    const refused = await api(server.baseUrl, "POST", "/api/age-verification/session", {
      apiKey,
      body: { age_required: 18, callback_url: "http://localhost:9/age-callback" },
    });
    expect(refused.status).toBe(401);

    await page.getByRole("tab", { name: "Account" }).click();
    await page.locator("#section-account").waitFor({ state: "visible" });
    await expect(page.locator("#profile-companyName").inputValue()).resolves.toBe("Cellar & Co");
    await page.screenshot({ path: `${ARTIFACTS}/console-8-account.png`, fullPage: true });

    expect(problems).toEqual([]);
  });

  it("the chart reads per-day counts, Load more keeps the first page's query, and a stale page is dropped", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    for (let i = 0; i < 52; i += 13) await Promise.all(Array.from({ length: 13 }, () => openSession(server.baseUrl, merchant.apiKey, 18)));
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(DESKTOP);
    const usageCalls: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/usage/")) usageCalls.push(url.pathname + url.search);
    });
    // Records, in the page, each API answer whose body the page has read. The page acts on a body in the
    // same run of microtasks that read it, so once a URL is listed here, the next task (any evaluate)
    // sees what the page made of that answer: no sleep needed to prove that it showed nothing.
    await page.addInitScript(() => {
      const scope = globalThis as any;
      const original = scope.fetch;
      scope.__bodiesRead = [] as string[];
      scope.fetch = async (...args: unknown[]) => {
        const response = await original(...args);
        const json = response.json.bind(response);
        response.json = async () => {
          try {
            return await json();
          } finally {
            scope.__bodiesRead.push(response.url);
          }
        };
        return response;
      };
    });
    await openSignedIn(page, server.baseUrl, merchant.token, "#usage");

    // The chart comes from the server's per-day counts; the CSV export is not downloaded for it.
    await expect.poll(() => page.locator("#chart").getAttribute("data-sessions")).toBe("52");
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(50);
    expect(usageCalls.filter((u) => u.startsWith("/api/usage/by-day?"))).toHaveLength(1);
    expect(usageCalls.some((u) => u.startsWith("/api/usage/export.csv"))).toBe(false);

    // Dates edited but not shown: "Load more" still sends the first page's query with the cursor.
    const first = usageCalls.find((u) => u.startsWith("/api/usage/sessions?"))!;
    await page.locator("#range-from").fill("2099-01-01");
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(52);
    const more = usageCalls.filter((u) => u.startsWith("/api/usage/sessions?")).at(-1)!;
    expect(more.startsWith(`${first}&cursor=`)).toBe(true);
    expect(await page.locator("#load-more").isVisible()).toBe(false);

    // A slow answer for "pending" arrives after the filter moved on to "denied": it is dropped.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/usage\/sessions\?.*status=PENDING/, async (route) => {
      await held;
      await route.continue();
    });
    await page.locator("#log-status").selectOption("PENDING");
    await expect.poll(() => usageCalls.some((u) => u.includes("status=PENDING"))).toBe(true);
    await page.locator("#log-status").selectOption("DENIED");
    await page.locator("#log-empty").waitFor({ state: "visible" });
    release();
    // The stale answer has been read (and dropped) by the page: then the table is still empty.
    await expect
      .poll(() => page.evaluate(() => ((globalThis as any).__bodiesRead as string[]).some((url) => url.includes("status=PENDING"))))
      .toBe(true);
    expect(await page.locator("#log-table tbody tr").count()).toBe(0);
    expect(await page.locator("#log-empty").isVisible()).toBe(true);

    expect(problems).toEqual([]);
  });
});
