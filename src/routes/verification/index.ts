// Verification area (docs/api-contract.md §Sessions), mounted at /api/age-verification: the merchant side with X-API-Key,
// the end-user side with the nonce, and with Bearer to answer.
import type { Area } from "../named-route";
import { answerTestSessionRoute } from "./answer-test-session";
import { completeSessionRoute } from "./complete-session";
import { declineSessionRoute } from "./decline-session";
import { digitalIdRequestRoute } from "./digital-id-request";
import { digitalIdResponseRoute } from "./digital-id-response";
import { openSessionRoute } from "./open-session";
import { passkeyApprovalOptionsRoute } from "./passkey-approval-options";
import { pollSessionRoute } from "./poll-session";
import { PREVIEW_PATH, previewCors } from "./preview-cors";
import { previewSessionRoute } from "./preview-session";
import { readSessionRequestRoute } from "./read-session-request";

const operations = [
  openSessionRoute,
  pollSessionRoute,
  previewSessionRoute,
  readSessionRequestRoute,
  declineSessionRoute,
  answerTestSessionRoute,
  completeSessionRoute,
  passkeyApprovalOptionsRoute,
  digitalIdRequestRoute,
  digitalIdResponseRoute,
];

// The preview's CORS before the operations: it answers the drop-in's preflight (OPTIONS) and marks the
// GET's answer (src/routes/verification/preview-cors.ts).
export const verificationRoutes: Area = { middleware: [{ path: PREVIEW_PATH, handler: previewCors }], operations };
