// The console's usage tab follows the Live/Test selector everywhere (docs/end-user-apps.md): the totals, the
// chart, the by-key table, the session log and the CSV count the same sessions, on a phone and a desktop;
// the log says each session's mode, shows the merchant's reference and why a session was denied.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ARTIFACTS, watchedPage } from "./browser";
import { seriousViolations } from "./axe";
import { consoleHarness, DESKTOP, openSignedIn, PHONE } from "./console-helpers";
import { api, merchantWithKey, openSession } from "./merchant";

const harness = consoleHarness("e2e-usage-mode");

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** What each part of the usage tab says it counts, read from the page. */
async function figures(page: Page) {
  const byKey = await page
    .locator("#by-key-table tbody tr")
    .evaluateAll((rows) => rows.map((row: any) => Number(row.cells[2].textContent)));
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  const [header, ...lines] = (await readAll(await download.createReadStream())).trim().split("\r\n");
  const livemode = header!.split(",").indexOf("livemode");
  return {
    total: Number(await page.locator("#stat-total").textContent()),
    chart: Number(await page.locator("#chart").getAttribute("data-sessions")),
    byKey: byKey.reduce((sum, n) => sum + n, 0),
    log: await page.locator("#log-table tbody tr").count(),
    logModes: [...new Set(await page.locator("#log-table tbody .pill.mode").allInnerTexts())],
    csv: lines.length,
    // Simple rows (no quoted commas in these sessions), so the column splits plainly.
    csvModes: [...new Set(lines.map((line) => line.split(",")[livemode]))],
    // The file's name says which sessions it holds.
    csvName: download.suggestedFilename().replace(/\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}/, "<range>"),
  };
}

describe.each([
  ["phone", PHONE],
  ["desktop", DESKTOP],
])("console usage on a %s", (label, viewport) => {
  it("the totals, chart, by-key table, session log and CSV all follow Live/Test and agree", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const testKey = await api<{ apiKey: string }>(server.baseUrl, "POST", "/api/keys", {
      token: merchant.token,
      body: { name: "staging", mode: "test" },
    });
    expect(testKey.status).toBe(201);
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
    for (const age of [16, 18, 25]) await openSession(server.baseUrl, testKey.body.data.apiKey, age);

    const { page, problems } = await watchedPage(browser, { acceptDownloads: true });
    await page.setViewportSize(viewport);
    await openSignedIn(page, server.baseUrl, merchant.token, "#usage");
    await expect.poll(() => page.locator("#stat-total").textContent()).toBe("2");
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(2);
    await expect.poll(() => page.locator("#chart").getAttribute("data-sessions")).toBe("2");
    expect(await figures(page)).toEqual({
      total: 2,
      chart: 2,
      byKey: 2,
      log: 2,
      logModes: ["Live"],
      csv: 2,
      csvModes: ["true"],
      csvName: "sessions-<range>-live.csv",
    });

    // The merchant's reference finds the order; a denial says why.
    const referenced = page.locator('#log-table tbody tr:has-text("order-2026-000123")');
    await expect(referenced.count()).resolves.toBe(1);
    const denied = page.locator(`#log-table tbody tr[data-session-id="${declined.session_id}"]`);
    await expect(denied.locator(".detail").innerText()).resolves.toBe("declined by the person");
    expect(await seriousViolations(page)).toEqual([]);

    // Live or test applies at once, as the status selector does: no "Show".
    await page.locator("#range-mode").selectOption("test");
    await expect.poll(() => page.locator("#stat-total").textContent()).toBe("3");
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(3);
    await expect.poll(() => page.locator("#chart").getAttribute("data-sessions")).toBe("3");
    expect(await figures(page)).toEqual({
      total: 3,
      chart: 3,
      byKey: 3,
      log: 3,
      logModes: ["Test"],
      csv: 3,
      csvModes: ["false"],
      csvName: "sessions-<range>-test.csv",
    });
    await page.screenshot({ path: `${ARTIFACTS}/console-usage-test-mode-${label}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
