// A digital ID from the person's wallet answering a session (docs/api-contract.md §Digital ID): the request the page hands
// to the Digital Credentials API, and the wallet's answer. No account takes part; the session's Durable
// Object makes the request, keeps its private half and checks the answer (src/session/digital-id-answer.ts).
import type { ServiceContext } from "../../context/service-context";
import { ApiError } from "../../errors";
import { sessionStub } from "../../session/session-stub";
import { checkedId, unwrap } from "./session-calls";
import { assurancesOffered } from "./ways-offered";

export { DigitalIdResponseBody } from "../../digital-id";

/** A deployment without trust anchors does not offer the way: refused before any session is touched. */
function offeredHere(ctx: ServiceContext): void {
  if (!assurancesOffered(ctx.settings).includes("DIGITAL_ID_VERIFIED")) throw new ApiError("ASSURANCE_NOT_ACCEPTED");
}

export async function requestDigitalId(ctx: ServiceContext, sessionId: string, nonce: string) {
  offeredHere(ctx);
  return unwrap(await sessionStub(ctx, checkedId(sessionId)).digitalIdRequest(nonce));
}

export async function answerWithDigitalId(
  ctx: ServiceContext,
  sessionId: string,
  nonce: string,
  body: { protocol: string; data: unknown },
) {
  offeredHere(ctx);
  return unwrap(await sessionStub(ctx, checkedId(sessionId)).digitalIdResponse(nonce, body));
}
