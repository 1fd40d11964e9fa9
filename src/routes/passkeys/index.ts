// Passkeys of the signed-in account (tag Passkeys, Bearer), mounted at /api/users/me/passkeys: enrolment,
// list, rename, remove (docs/passkeys.md). The approval's assertion options live with the session
// (routes/verification/passkey-approval-options.ts).
import { areaOf } from "../named-route";
import { confirmationOptionsRoute } from "./confirmation-options";
import { enrolPasskeyRoute } from "./enrol-passkey";
import { listPasskeysRoute } from "./list-passkeys";
import { registrationOptionsRoute } from "./registration-options";
import { removePasskeyRoute } from "./remove-passkey";
import { renamePasskeyRoute } from "./rename-passkey";

export const passkeyRoutes = areaOf(
  listPasskeysRoute,
  registrationOptionsRoute,
  enrolPasskeyRoute,
  confirmationOptionsRoute,
  renamePasskeyRoute,
  removePasskeyRoute,
);
