// A merchant's own site on a free local port for the browser tests: the page a return_url leads back
// to. GET /back answers a small page; every path asked for is recorded.
import { createServer } from "node:http";

export async function startReturnSite() {
  /** @type {string[]} */
  const visits = [];
  const server = createServer((req, res) => {
    visits.push(req.url ?? "");
    const found = req.method === "GET" && /^\/back(\?|$)/.test(req.url ?? "");
    res.writeHead(found ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    // An empty icon, so that chromium does not ask for /favicon.ico (a 404 counts as a problem).
    res.end('<!doctype html><title>Back at the shop</title><link rel="icon" href="data:,"><h1>Back at the shop</h1>');
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    visits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
