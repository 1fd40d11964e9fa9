// API keys area (docs/api-contract.md §Keys), mounted at /api/keys: verified BUSINESS accounts manage their merchant keys.
import { areaOf } from "../named-route";
import { createKeyRoute } from "./create-key";
import { listKeysRoute } from "./list-keys";
import { revokeKeyRoute } from "./revoke-key";
import { rotateSigningSecretRoute } from "./rotate-signing-secret";
import { sendTestCallbackRoute } from "./send-test-callback";
import { updateAllowedOriginsRoute } from "./update-allowed-origins";

export const keyRoutes = areaOf(
  createKeyRoute,
  listKeysRoute,
  updateAllowedOriginsRoute,
  rotateSigningSecretRoute,
  sendTestCallbackRoute,
  revokeKeyRoute,
);
