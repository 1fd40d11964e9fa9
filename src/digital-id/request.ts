// Making a digital-ID request for a session (docs/api-contract.md §Digital ID): the `digital.requests` array the page hands
// to `navigator.credentials.get`, and the pending state the session's Durable Object keeps to check the
// answer. Every call makes fresh keys and nonces; the mdoc way is left out above age 99.
import { createAnnexCRequest } from "./annex-c";
import { MDOC_MAX_AGE } from "./credentials";
import { createOpenId4VpRequest } from "./openid4vp";
import type { PendingDigitalIdRequest } from "./pending";

export type DigitalCredentialRequest = { protocol: string; data: Record<string, unknown> };

export type CreateDigitalIdRequestInput = {
  ageRequired: number;
  /** The origin of APP_URL: only pages there may ask (it is not in the request: the browser supplies it). */
  appOrigin: string;
  now: Date;
};

export async function createDigitalIdRequest(
  input: CreateDigitalIdRequestInput,
): Promise<{ requests: DigitalCredentialRequest[]; pending: PendingDigitalIdRequest }> {
  const openId4Vp = await createOpenId4VpRequest(input.ageRequired);
  const annexC = input.ageRequired > MDOC_MAX_AGE ? null : await createAnnexCRequest(input.ageRequired);
  return {
    requests: annexC ? [annexC.request, openId4Vp.request] : [openId4Vp.request],
    pending: {
      ageRequired: input.ageRequired,
      createdAt: input.now.toISOString(),
      mdoc: annexC?.pending ?? null,
      openId4Vp: openId4Vp.pending,
    },
  };
}
