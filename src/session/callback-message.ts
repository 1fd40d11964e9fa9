// The queue message of a resolved session's callback (src/callbacks/message.ts), built from the
// session's state: by the resolution itself, and again for an event whose message was lost.
import { eventTypeFor, type CallbackMessage } from "../callbacks/message";
import { nowIso } from "../lib/time";
import { polledView } from "./session-view";
import type { SessionState } from "./state-machine";

export function callbackMessage(state: SessionState, webhookId: string, attempt: number): CallbackMessage {
  if (state.status === "PENDING") throw new Error("a pending session has no callback");
  return {
    webhookId,
    type: eventTypeFor(state.status),
    timestamp: state.resolvedAt ?? nowIso(),
    sessionId: state.id,
    keyId: state.keyId,
    callbackUrl: state.callbackUrl,
    data: polledView(state),
    attempt,
  };
}
