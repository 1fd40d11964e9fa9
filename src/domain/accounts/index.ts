// Accounts (docs/api-contract.md §Auth, §Users): sign-up, sign-in, email links, credential and profile changes, deletion.
// What the routes and pages may use; the files beside this one are the feature's own.
export { deleteAccount, DeleteAccountInput, FRESH_SIGN_IN_SECONDS } from "./account-deletion";
export {
  ChangeEmailInput,
  changePassword,
  ChangePasswordInput,
  confirmEmailChange,
  requestEmailChange,
  TokenInput,
} from "./credential-change";
export { resendVerification, verifyEmail } from "./email-verification";
export { ForgotPasswordInput, requestPasswordReset, resetPassword, ResetPasswordInput } from "./password-reset";
export { ProfileInput, updateProfile } from "./profile";
export { register, RegisterInput } from "./registration";
export { checkPassword, login, LoginInput, signOutEverywhere } from "./sign-in";
export { EmailField, toUser, User } from "./users";
