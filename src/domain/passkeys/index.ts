// Passkeys (WebAuthn): enrolment, listing, renaming, removal, and the assertion that approves a session.
export {
  approvalOptions,
  confirmationOptions,
  enrolPasskey,
  listPasskeys,
  PasskeyName,
  PasskeyView,
  registrationOptions,
  removePasskey,
  renamePasskey,
  verifyApproval,
  verifyConfirmation,
} from "./passkeys";
export { AssertionCredential, PasskeyRequestOptions, RegistrationCredential } from "./webauthn";
