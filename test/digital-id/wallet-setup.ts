/// <reference types="vite/client" />
// The test wallet under the committed test IACA root, and the service's side of one session: make a
// request, let the wallet answer it, verify the answer, with the pending state passed through JSON as
// the session's Durable Object will keep it.
import { expect } from "vitest";
import rootPem from "../wallet/test-iaca.pem?raw";
import rootKey from "../wallet/test-iaca-key.json?raw";
import { createDigitalIdRequest, parseTrustAnchors, verifyDigitalIdResponse } from "../../src/digital-id";
import { isolateStatusLists } from "../../src/session/status-lists";
import type { StatusListPort } from "../../src/digital-id/status-list";
import { documentSigner, testRoot, type DigitalResponse } from "../wallet";

export const APP_ORIGIN = "https://age.example.test";

export const root = () => testRoot(rootPem, JSON.parse(rootKey));
export const anchors = () => parseTrustAnchors(rootPem);
export const signerUnderTestRoot = async () => documentSigner(await root());

export async function newRequest(ageRequired: number) {
  const { requests, pending } = await createDigitalIdRequest({ ageRequired, appOrigin: APP_ORIGIN, now: new Date() });
  return { requests, pending: JSON.parse(JSON.stringify(pending)) as unknown };
}

/** Verifies as the session's Durable Object does; status lists through the isolate's own source (src/session/status-lists.ts) unless given. */
export const verify = (
  response: DigitalResponse,
  pending: unknown,
  ageRequired: number,
  trustAnchors = anchors(),
  now = new Date(),
  statusLists: StatusListPort = isolateStatusLists,
) => verifyDigitalIdResponse(response, { pending, ageRequired, appOrigin: APP_ORIGIN, trustAnchors, now, statusLists });

/**
 * Expects the verification refused with 422 DIGITAL_ID_INVALID, and its message: whole for a reason given
 * as text (it reaches the problem detail as it is), matched for a pattern.
 */
export async function refused(verification: Promise<unknown>, reason: string | RegExp) {
  const error = await verification.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: "DIGITAL_ID_INVALID", status: 422 });
  if (typeof reason === "string") expect((error as Error).message).toBe(`The digital ID did not verify: ${reason}`);
  else expect((error as Error).message).toMatch(reason);
}
