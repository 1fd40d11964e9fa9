// From the completion response to the signed callback arriving at a local receiver, over many sessions.
// Completions are paced (not all at once) so each callback meets the service as a lone resolution would.
// The first attempt leaves the session's object as soon as the resolution is durable (docs/performance.md), so a
// callback may arrive before the completion's response is read: its latency counts as 0 (the merchant
// heard it no later than the person's page), and `beforeAnswer` says how many did.
import { apiClient, expectStatus } from "../tools/api-client";
import { startCallbackReceiver } from "../tools/callback-receiver";
import type { Fixtures } from "./prepare";

export type CallbackLatency = {
  sessions: number;
  received: number;
  beforeAnswer: number;
  p50: number;
  p95: number;
  max: number;
  unverified: number;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export async function measureCallbackLatency(
  baseUrl: string,
  fixtures: Fixtures,
  sessions: number,
  intervalMs: number,
): Promise<CallbackLatency> {
  const api = apiClient(baseUrl);
  const completedAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  let unverified = 0;
  const receiver = await startCallbackReceiver({
    secret: fixtures.signingSecret,
    onCallback(callback) {
      if (!callback.event) return void unverified++;
      if (!receivedAt.has(callback.event.data.session_id)) receivedAt.set(callback.event.data.session_id, callback.receivedAt);
    },
  });
  try {
    const opened: { id: string; nonce: string }[] = [];
    for (let i = 0; i < sessions; i++) {
      const res = await api("POST", "/api/age-verification/session", {
        apiKey: fixtures.apiKey,
        body: { age_required: 18, callback_url: `${receiver.url}/callbacks` },
      });
      expectStatus(res, 201);
      opened.push({ id: res.body.data.session_id, nonce: res.body.data.nonce });
    }
    for (const session of opened) {
      const res = await api("POST", `/api/age-verification/session/${session.id}/complete`, {
        token: fixtures.userToken,
        body: { nonce: session.nonce, consent: true },
      });
      expectStatus(res, 200);
      completedAt.set(session.id, performance.now());
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
    // Every callback should be in within seconds; wait a bounded time for stragglers.
    const deadline = Date.now() + 15_000;
    while (receivedAt.size < sessions && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    await receiver.close();
  }
  const raw = [...completedAt].flatMap(([id, completed]) => (receivedAt.has(id) ? [receivedAt.get(id)! - completed] : []));
  const sorted = raw.map((ms) => Math.max(0, ms)).sort((a, b) => a - b);
  return {
    sessions,
    received: sorted.length,
    beforeAnswer: raw.filter((ms) => ms < 0).length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1] ?? NaN,
    unverified,
  };
}
