// The first screen's view of a session (CONTRACT §12): what the end user sees before any sign-in. The
// nonce already proves the link, so this needs no account; it names the merchant, the age asked and
// whether the link can still be answered, and nothing about any person.
import * as z from "zod";
import { LOCALES } from "../db/schema";
import { SESSION_STATUSES } from "./session-status";
import type { SessionState } from "./state-machine";

export const SessionPreview = z.object({
  merchant_name: z.string(),
  age_required: z.int(),
  status: z.enum(SESSION_STATUSES),
  expires_at: z.iso.datetime(),
  resolved_at: z.iso.datetime().nullable().describe("When the link was answered or expired; null while PENDING"),
  livemode: z.boolean(),
  return_url: z.string().nullable().describe("Where the merchant asked the end user to be sent back; null when it gave none"),
  locale: z.enum(LOCALES).nullable().describe("The language the merchant asked the pages to open in; null when it gave none"),
});
export type SessionPreview = z.infer<typeof SessionPreview>;

/** The merchant-integration fields (return_url, locale, livemode) are read when the session carries them. */
type WithMerchantFields = SessionState & { returnUrl?: string | null; locale?: string | null; livemode?: boolean };

export function previewView(state: WithMerchantFields): SessionPreview {
  const locale = (LOCALES as readonly string[]).includes(state.locale ?? "") ? (state.locale as SessionPreview["locale"]) : null;
  return {
    merchant_name: state.merchantName,
    age_required: state.ageRequired,
    status: state.status,
    expires_at: state.expiresAt,
    resolved_at: state.resolvedAt,
    livemode: state.livemode ?? true,
    return_url: state.returnUrl ?? null,
    locale,
  };
}
