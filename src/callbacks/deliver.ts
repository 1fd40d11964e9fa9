// One outbound attempt: a signed POST to the merchant's callback_url, bounded in time and in what
// is read back, never following a redirect.
import { withDeadline } from "../lib/deadline";
import { toIso } from "../lib/time";
import { callbackHostProblem } from "./callback-host";
import type { AttemptOutcome } from "./retry-policy";
import { webhookHeaders } from "./sign";

export const DELIVERY_TIMEOUT_MS = 15_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = "age-verification-callbacks/1.0";

export type AttemptResult = { at: string; durationMs: number; outcome: AttemptOutcome };

/** What one signed POST needs: a queued event (CallbackMessage) or a test event (src/domain/merchant-callbacks/test-event.ts). */
export type OutboundEvent = { webhookId: string; callbackUrl: string; type: string; timestamp: string; data: unknown };

/** The body every attempt of an event sends, byte for byte: `{type, timestamp, data}`. */
export const callbackBody = (message: Pick<OutboundEvent, "type" | "timestamp" | "data">): string =>
  JSON.stringify({ type: message.type, timestamp: message.timestamp, data: message.data });

/**
 * Reads at most MAX_RESPONSE_BYTES so the connection is released without letting a receiver make us
 * buffer an unbounded body. The content is not kept: only the status code matters.
 */
async function drain(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read < MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // A body that fails or times out after the status arrived does not change the answer.
  }
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/**
 * `signingSecrets`: the key's live secrets, newest first (two during a rotation's grace). `dohUrl`: where
 * the host is resolved before sending (settings.dnsOverHttpsUrl); without it, no lookup (development).
 */
export async function attemptDelivery(
  message: OutboundEvent,
  signingSecrets: readonly string[],
  dohUrl: string | undefined,
): Promise<AttemptResult> {
  const startedAt = Date.now();
  const body = callbackBody(message);
  const signed = await webhookHeaders(signingSecrets, message.webhookId, Math.floor(startedAt / 1000), body);
  const finish = (outcome: AttemptOutcome): AttemptResult => ({
    at: toIso(startedAt),
    durationMs: Math.max(Date.now() - startedAt, 0),
    outcome,
  });
  if (dohUrl) {
    const problem = await callbackHostProblem(dohUrl, message.callbackUrl);
    if (problem) return finish({ kind: "error", error: problem });
  }
  try {
    // The deadline covers the answer and the drain of its body; its timer stops with them.
    return await withDeadline(DELIVERY_TIMEOUT_MS, async (signal) => {
      const response = await fetch(message.callbackUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...signed },
        body,
        redirect: "manual",
        signal,
      });
      await drain(response);
      return finish({ kind: "response", status: response.status, retryAfter: response.headers.get("retry-after") });
    });
  } catch (error) {
    return finish({ kind: "error", error: isTimeout(error) ? "timeout" : "network_error" });
  }
}
