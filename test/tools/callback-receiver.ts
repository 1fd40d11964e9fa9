// A local HTTP server that receives the service's callbacks and verifies them with the Standard Webhooks
// reference library, as a merchant's server would. Used by `npm run receiver`, the demo and the bench.
import { createServer, type IncomingMessage } from "node:http";
import { Webhook } from "standardwebhooks";

export type CallbackEvent = {
  type: string;
  timestamp: string;
  data: { session_id: string; status: string; receipt_id: string | null; [field: string]: unknown };
};

export type ReceivedCallback = {
  webhookId: string | undefined;
  /** `webhook-timestamp` as sent: Unix seconds of this attempt. */
  timestamp: string | undefined;
  verified: boolean;
  /** Why verification failed (the library's message), when it did. */
  reason: string | undefined;
  /** The parsed body; present only when the signature verified. */
  event: CallbackEvent | undefined;
  /** performance.now() when the whole body had arrived. */
  receivedAt: number;
  /** The status this receiver answered. */
  answered: number;
};

export type CallbackReceiver = {
  url: string;
  port: number;
  received: ReceivedCallback[];
  /** The first callback (already received or still to come) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (callback: ReceivedCallback) => boolean, timeoutMs: number): Promise<ReceivedCallback>;
  close(): Promise<void>;
};

export type ReceiverOptions = {
  /** The key's `whsec_…` signing secret. */
  secret: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Answer to a verified callback; anything but 2xx makes the service retry. Default 204. */
  status?: number;
  onCallback?: (callback: ReceivedCallback) => void;
};

/** Callbacks are small; a larger body is not one of ours. */
const MAX_BODY_BYTES = 256 * 1024;

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

export async function startCallbackReceiver(options: ReceiverOptions): Promise<CallbackReceiver> {
  const webhook = new Webhook(options.secret);
  const received: ReceivedCallback[] = [];
  const waiters = new Set<(callback: ReceivedCallback) => void>();

  const server = createServer(async (request, response) => {
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "POST" }).end();
      return;
    }
    let raw: string | null;
    try {
      raw = await readBody(request);
    } catch {
      // The sender went away mid-body (or the socket failed): nothing to record. A handler that
      // rejected here would be an unhandled rejection, which ends the demo or the bench.
      response.writeHead(400).end();
      return;
    }
    if (raw === null) {
      response.writeHead(413).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) headers[name] = header(request, name) ?? "";
    let event: CallbackEvent | undefined;
    let reason: string | undefined;
    try {
      // Verify the raw body before trusting any of it, exactly as a merchant should.
      event = webhook.verify(raw, headers) as CallbackEvent;
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    // A forged or stale callback gets a 401, as a real receiver would answer; the service retries it.
    const answered = event ? (options.status ?? 204) : 401;
    const callback: ReceivedCallback = {
      webhookId: headers["webhook-id"] || undefined,
      timestamp: headers["webhook-timestamp"] || undefined,
      verified: event !== undefined,
      reason,
      event,
      receivedAt: performance.now(),
      answered,
    };
    received.push(callback);
    response.writeHead(answered, { "content-type": "text/plain" }).end(answered < 300 ? "" : "not accepted");
    options.onCallback?.(callback);
    for (const waiter of waiters) waiter(callback);
  });

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.on("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `http://${host}:${port}`,
    port,
    received,
    waitFor(predicate, timeoutMs) {
      const already = received.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const waiter = (callback: ReceivedCallback) => {
          if (!predicate(callback)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(callback);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching callback within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
