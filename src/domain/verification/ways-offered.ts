// The ways this deployment offers to prove an age (docs/api-contract.md §Session policy): an account verified by the identity
// provider always; a wallet's digital ID when trust anchors are configured; anonymous age tokens when
// token keys are. The open request's policy is checked against them, and defaults to all of them.
import type { Settings } from "../../config/settings";
import type { FieldError } from "../../errors";
import type { Assurance } from "../../session/assurance";
import { digitalIdOffered } from "../../session/digital-id-answer";

export function assurancesOffered(settings: Pick<Settings, "digitalIdTrustAnchors">): Assurance[] {
  return digitalIdOffered(settings) ? ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"] : ["KYC_VERIFIED"];
}

export const ageTokensOffered = (settings: Pick<Settings, "ageTokenKeys">): boolean => settings.ageTokenKeys !== undefined;

export type SessionPolicy = { acceptedAssurance: Assurance[]; doubleBlind: boolean };

/**
 * The session's policy from the open request, or the fields it breaks: a way the deployment does not
 * offer, or a double-blind session that no way left could approve (a token needs KYC_VERIFIED accepted
 * and token keys, and no require_passkey; a digital ID needs DIGITAL_ID_VERIFIED accepted).
 */
export function sessionPolicy(
  settings: Pick<Settings, "digitalIdTrustAnchors" | "ageTokenKeys">,
  asked: { accepted_assurance?: Assurance[]; double_blind?: boolean; require_passkey?: boolean },
): { ok: true; policy: SessionPolicy } | { ok: false; errors: FieldError[] } {
  const offered = assurancesOffered(settings);
  const accepted = asked.accepted_assurance ? offered.filter((way) => asked.accepted_assurance!.includes(way)) : offered;
  const notOffered = (asked.accepted_assurance ?? []).filter((way) => !offered.includes(way));
  if (notOffered.length > 0) {
    return {
      ok: false,
      errors: [
        {
          path: "accepted_assurance",
          message: `This deployment does not offer ${notOffered.join(", ")}; it offers ${offered.join(", ")}.`,
        },
      ],
    };
  }
  const doubleBlind = asked.double_blind ?? false;
  const blindWay = (accepted.includes("KYC_VERIFIED") && ageTokensOffered(settings)) || accepted.includes("DIGITAL_ID_VERIFIED");
  if (doubleBlind && !blindWay) {
    return {
      ok: false,
      errors: [
        {
          path: "double_blind",
          message:
            "No accepted way can approve a double-blind session here: accept DIGITAL_ID_VERIFIED, or KYC_VERIFIED where anonymous age tokens are offered.",
        },
      ],
    };
  }
  // Double-blind leaves the token and the wallet; require_passkey refuses the token (a bearer token binds no
  // device key): only the wallet's device signature is left, so the session must accept it, here.
  if (doubleBlind && asked.require_passkey && !accepted.includes("DIGITAL_ID_VERIFIED")) {
    return {
      ok: false,
      errors: [
        {
          path: "require_passkey",
          message:
            "A double-blind session that requires a passkey can be approved only by a wallet's digital ID: accept DIGITAL_ID_VERIFIED, on a deployment that offers it.",
        },
      ],
    };
  }
  return { ok: true, policy: { acceptedAssurance: accepted, doubleBlind } };
}
