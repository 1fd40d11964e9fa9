// One DevTools protocol session over a WebSocket, for the bench's profiles: startup.ts (Miniflare's own
// inspector) and profile.ts (wrangler dev's inspector proxy). send(method, params) resolves with the result.

export type DevtoolsSession = { send(method: string, params?: Record<string, unknown>): Promise<any>; close(): void };

/** `headers`: Node's WebSocket (undici) takes them as a non-standard option. */
export async function openDevtools(url: string, headers?: Record<string, string>): Promise<DevtoolsSession> {
  const socket = new WebSocket(url, (headers ? { headers } : undefined) as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: { profile?: unknown }; error?: unknown };
    if (message.id === undefined) return;
    // wrangler's proxy may renumber replies: the profile answers the newest request (Profiler.stop),
    // another unknown id the oldest still waiting. A direct inspector keeps the ids.
    const id = waiting.has(message.id) ? message.id : message.result?.profile ? Math.max(...waiting.keys()) : Math.min(...waiting.keys());
    waiting.get(id)?.(message.result ?? message.error);
    waiting.delete(id);
  };
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<any>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}
