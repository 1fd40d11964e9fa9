// Checking a wallet's answer to the session's latest digital-ID request (docs/api-contract.md §Digital ID) and deciding the
// outcome. Throws DIGITAL_ID_INVALID (it did not verify for this request), DIGITAL_ID_INSUFFICIENT (it
// decides nothing) or VALIDATION_FAILED (a body that is not `{protocol, data}` of an offered protocol).
// Returns only the outcome: nothing of the credential leaves this function, and nothing is logged.
import * as z from "../lib/lazy-zod";
import { ApiError, fieldErrors, validationFailed } from "../errors";
import { decideAge, type AgeClaim, type DigitalIdOutcome } from "./age-outcome";
import { ANNEX_C_PROTOCOL, AnnexCResponse, verifyAnnexCResponse } from "./annex-c";
import { invalid } from "./failures";
import { checkStatuses, type StatusListPort } from "./status-list";
import { OPENID4VP_PROTOCOL, OpenId4VpResponse, verifyOpenId4VpResponse } from "./openid4vp";
import { PendingDigitalIdRequest } from "./pending";
import type { Certificate } from "./x509";

/** The body of `…/digital-id/response`: what the browser's DigitalCredential carries. */
export const DigitalIdResponseBody = z.discriminatedUnion("protocol", [
  z.object({ protocol: z.literal(ANNEX_C_PROTOCOL), data: AnnexCResponse }),
  z.object({ protocol: z.literal(OPENID4VP_PROTOCOL), data: OpenId4VpResponse }),
]);
export type DigitalIdResponseBody = z.infer<typeof DigitalIdResponseBody>;

export type VerifyDigitalIdContext = {
  /** The session's pending request, or null when there is none (never asked, or already answered). */
  pending: unknown;
  ageRequired: number;
  appOrigin: string;
  trustAnchors: Certificate[];
  now: Date;
  /** How credentials' status lists are fetched and kept; without it, a credential that names one is refused. */
  statusLists?: StatusListPort;
};

export async function verifyDigitalIdResponse(
  body: { protocol: unknown; data: unknown },
  context: VerifyDigitalIdContext,
): Promise<DigitalIdOutcome> {
  const parsedBody = DigitalIdResponseBody.safeParse(body);
  if (!parsedBody.success) throw validationFailed(fieldErrors(parsedBody.error));
  const pending = PendingDigitalIdRequest.safeParse(context.pending);
  if (!pending.success || pending.data.ageRequired !== context.ageRequired)
    throw invalid("there is no open request for this session to answer (it was answered or replaced).");
  if (context.trustAnchors.length === 0) throw invalid("no issuer is trusted by this deployment.");

  const { protocol, data } = parsedBody.data;
  if (protocol === ANNEX_C_PROTOCOL && !pending.data.mdoc)
    throw validationFailed([{ path: "protocol", message: "This request did not offer org-iso-mdoc." }]);
  let ages: AgeClaim[];
  try {
    ages =
      protocol === ANNEX_C_PROTOCOL
        ? await verifyAnnexCResponse(data, pending.data.mdoc!, context.appOrigin, context.trustAnchors, context.now)
        : await verifyOpenId4VpResponse(data, pending.data.openId4Vp, context.appOrigin, context.trustAnchors, context.now);
  } catch (error) {
    throw unreadable(error);
  }
  // Last, once every signature and binding has verified: only a genuine, bound credential makes the service fetch.
  await checkStatuses(
    ages.flatMap((claim) => (claim.status ? [claim.status] : [])),
    context,
  );
  return decideAge(ages, context.ageRequired);
}

/**
 * The boundary around everything that reads the wallet's answer: an ApiError is the verifier's own
 * refusal and passes as it is; anything else (a decoder's TypeError, a RangeError, a Web Crypto
 * DOMException) means the answer could not be read, which is a counted failure like any other
 * (docs/digital-id.md, "What is verified"), never a 500 that escapes the five-failure cap. The
 * exception's text is not passed on: it may quote the answer, and it says nothing a wallet can act on.
 */
function unreadable(error: unknown): ApiError {
  return error instanceof ApiError ? error : invalid("the answer could not be read.");
}
