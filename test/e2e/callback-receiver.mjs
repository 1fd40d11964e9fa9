// A merchant's callback endpoint on a free local port for the browser tests: records every POST
// (headers and raw body) and answers 204.
import { createServer } from "node:http";

export async function startCallbackReceiver() {
  /** @type {{ headers: Record<string, string>, body: string }[]} */
  const received = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const headers = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = String(value);
      received.push({ headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/hooks/age`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
