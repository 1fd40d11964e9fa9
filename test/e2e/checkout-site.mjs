// A merchant's checkout pages on a free local port for the drop-in's browser tests: each page is set by
// the test (its HTML and its Content-Security-Policy) before chromium opens it. A real server, not
// page.route: chromium treats a page fulfilled by the test as public, and refuses it the loopback
// address the service's script is served from (local network access), which a real merchant page is not.
import { createServer } from "node:http";

export async function startCheckoutSite() {
  /** @type {Map<string, { html: string, policy: string }>} */
  const pages = new Map();
  const server = createServer((req, res) => {
    const page = req.method === "GET" ? pages.get((req.url ?? "").split("?")[0] ?? "") : undefined;
    if (!page) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": page.policy });
    res.end(page.html);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    /** @param {string} path @param {string} html @param {string} policy */
    set: (path, html, policy) => void pages.set(path, { html, policy }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
