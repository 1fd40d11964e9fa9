// Auth area (docs/api-contract.md §Auth), mounted at /api/auth: no credential except where requireUser says so.
import { areaOf } from "../named-route";
import { confirmEmailChangeRoute } from "./confirm-email-change";
import { forgotPasswordRoute } from "./forgot-password";
import { loginRoute } from "./login";
import { logoutRoute } from "./logout";
import { registerRoute } from "./register";
import { resendVerificationRoute } from "./resend-verification";
import { resetPasswordRoute } from "./reset-password";
import { verifyEmailRoute } from "./verify-email";

export const authRoutes = areaOf(
  registerRoute,
  loginRoute,
  verifyEmailRoute,
  resendVerificationRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  confirmEmailChangeRoute,
  logoutRoute,
);
