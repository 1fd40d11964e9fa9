// GET /console serves a static file (public/console/<variant>.html, read by src/apps/console/console-routes.ts
// through the ASSETS binding): the page varies only by the development flag, so both variants are
// rendered here from the console's JSX and checked in, and the Worker's script carries none of that
// markup (docs/performance.md). A change to the page, or to an asset's content hash it links
// (src/web/assets/versions.ts), without regenerating fails here; `npm run openapi` (run by
// `npm run asset-versions`) runs it with --update, which writes the files.
import { describe, expect, it } from "vitest";
import { renderConsolePage } from "../../src/apps/console/console-page";

describe("static console page", () => {
  it("public/console/production.html is the page without the development hints", async () => {
    const html = await renderConsolePage({ development: false });
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('data-development="false"');
    expect(html).not.toContain("/dev/outbox");
    await expect(html).toMatchFileSnapshot("../../public/console/production.html");
  });

  it("public/console/development.html is the page with them", async () => {
    const html = await renderConsolePage({ development: true });
    expect(html).toContain('data-development="true"');
    expect(html).toContain('id="outbox-hint"');
    await expect(html).toMatchFileSnapshot("../../public/console/development.html");
  });
});
