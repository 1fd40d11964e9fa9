// Debian's chromium driven by playwright-core, and a page that records everything that went wrong:
// console errors, uncaught exceptions, failed requests and HTTP error responses.
import { chromium, type Browser, type Page, type Response } from "playwright-core";

// Without the background-networking flags chromium keeps trying to reach Google's hosts, which this
// closed network refuses. Playwright adds a fresh temporary --user-data-dir to every launch.
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ARGS });

export const ARTIFACTS = "test/artifacts";

export type WatchedPage = { page: Page; problems: string[] };

export async function watchedPage(browser: Browser, options: { acceptDownloads?: boolean } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, acceptDownloads: options.acceptDownloads ?? false });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) =>
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ""}`),
  );
  page.on("response", (response: Response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return { page, problems };
}

export const STRICT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
