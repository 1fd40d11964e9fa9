// The callback receiver that the demo and the bench share: a sender that gives up mid-body must not
// bring it down (an unhandled rejection would end the demo or the bench run).
import { afterEach, describe, expect, it } from "vitest";
import { createConnection } from "node:net";
import { startCallbackReceiver, type CallbackReceiver } from "./callback-receiver";

const SECRET = `whsec_${btoa("0123456789abcdef0123456789abcdef")}`;

let receiver: CallbackReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** A POST that announces 1000 bytes, sends a few, and closes the connection: the body read fails. */
async function abortMidBody(port: number) {
  await new Promise<void>((resolve) => {
    const socket = createConnection(port, "127.0.0.1", () => {
      socket.write(`POST /callbacks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":`);
      setTimeout(() => socket.destroy(), 20);
    });
    socket.on("close", () => resolve());
    socket.on("error", () => resolve());
  });
}

/** A POST cut short by the sender closing its side: it is answered 400, and nothing is recorded. */
async function truncatedBody(port: number): Promise<string> {
  return new Promise((resolve) => {
    let answer = "";
    const socket = createConnection(port, "127.0.0.1", () => {
      socket.write(`POST /callbacks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"type":`);
      socket.end();
    });
    socket.on("data", (chunk) => (answer += new TextDecoder().decode(chunk)));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => resolve(answer));
  });
}

describe("callback receiver", () => {
  it("survives senders that abort mid-body, records nothing for them, and keeps answering", async () => {
    receiver = await startCallbackReceiver({ secret: SECRET });
    for (let i = 0; i < 3; i++) await abortMidBody(receiver.port);
    expect(await truncatedBody(receiver.port)).toMatch(/^HTTP\/1\.1 400 /);

    const unsigned = await fetch(`${receiver.url}/callbacks`, { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(401);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ verified: false, answered: 401 });
  });
});
