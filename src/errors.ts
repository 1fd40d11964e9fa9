// The error vocabulary (docs/api-contract.md §Conventions): every machine code the API answers with, its HTTP status and its
// default message, in one catalogue. ApiError, the route descriptions and the OpenAPI document's error
// enums all read it, so a code that is not listed here does not compile. No Hono import: the domain
// throws these, and src/http/error-envelope.ts writes them.

export const ERROR_CATALOGUE = {
  BAD_REQUEST: { status: 400, message: "The request could not be read." },
  MALFORMED_JSON: { status: 400, message: "The request body is not valid JSON." },
  PASSKEY_INVALID: { status: 400, message: "The passkey response did not verify." },
  INVALID_TOKEN: { status: 400, message: "This link is unknown, already used or expired." },
  UNAUTHORIZED: { status: 401, message: "Missing, invalid or expired credential." },
  INVALID_CREDENTIALS: { status: 401, message: "Email or password is wrong." },
  INVALID_SIGNATURE: { status: 401, message: "The webhook signature is missing or does not match the body." },
  BUSINESS_ACCOUNT_REQUIRED: { status: 403, message: "This needs a business account." },
  EMAIL_NOT_VERIFIED: { status: 403, message: "Verify your email address first." },
  KYC_REQUIRED: { status: 403, message: "Verify your identity before answering age requests." },
  PASSKEY_REQUIRED: { status: 403, message: "Approving this request needs your passkey." },
  ASSURANCE_NOT_ACCEPTED: { status: 403, message: "The merchant does not accept this way of proving an age for this request." },
  AGE_TOKEN_NOT_ALLOWED: { status: 403, message: "This account's verified age is under the threshold of the age tokens asked for." },
  ATTESTATION_NOT_ALLOWED: { status: 403, message: "A proof-of-age attestation needs a verified age of at least 18." },
  DOUBLE_BLIND_REQUIRED: { status: 403, message: "This request can only be approved with an anonymous age token or a digital ID." },
  NOT_FOUND: { status: 404, message: "Resource not found." },
  ALREADY_VERIFIED: { status: 409, message: "This email address is already verified." },
  APPLICANT_EXISTS: { status: 409, message: "This account already has an applicant." },
  APPLICANT_REQUIRED: { status: 409, message: "Create an applicant first." },
  IDENTITY_ALREADY_VERIFIED: {
    status: 409,
    message: "This identity document already verifies another account. One document verifies one account; deleting that account frees it.",
  },
  KYC_ALREADY_VERIFIED: { status: 409, message: "This account's identity is already verified; its details can no longer be changed." },
  KYC_CHECK_PENDING: { status: 409, message: "The identity check is not finished; details can be corrected only after a refused check." },
  EMAIL_TAKEN: { status: 409, message: "An account with this email already exists." },
  KEY_LIMIT_REACHED: { status: 409, message: "The account has the most active keys it can have; revoke one first." },
  ROTATION_CONFLICT: {
    status: 409,
    message: "The signing secret was rotated by another request at the same moment; list the key and try again.",
  },
  NOTHING_TO_REDELIVER: { status: 409, message: "This session has no callback event that can be sent again." },
  PASSKEY_LIMIT_REACHED: { status: 409, message: "The account has the most passkeys it can have; remove one first." },
  AGE_TOKEN_SPENT: { status: 409, message: "This age token has already been used." },
  SESSION_NOT_PENDING: { status: 409, message: "This request has already been answered or has expired." },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, message: "A request with this Idempotency-Key is still being processed; retry shortly." },
  SESSION_WITHDRAWN: { status: 410, message: "This request is no longer valid: it can no longer be answered." },
  PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is larger than 64 KiB." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Send the request body as application/json." },
  CALLBACK_ORIGIN_NOT_ALLOWED: { status: 422, message: "The callback_url is not on one of this key's allowed callback origins." },
  AGE_TOKEN_INVALID: { status: 422, message: "The age token is not valid for this service." },
  AGE_TOKEN_INSUFFICIENT: { status: 422, message: "The age token is for an age below the one this request needs." },
  VALIDATION_FAILED: { status: 422, message: "The request did not pass validation." },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: "This Idempotency-Key was used with a different request body." },
  DIGITAL_ID_INVALID: { status: 422, message: "The digital ID did not verify for this request." },
  DIGITAL_ID_INSUFFICIENT: { status: 422, message: "The digital ID did not say whether the person is old enough." },
  RATE_LIMITED: { status: 429, message: "Too many attempts; try again in a minute." },
  INTERNAL_ERROR: { status: 500, message: "Something went wrong on our side." },
  MISCONFIGURED: { status: 503, message: "The service is not configured to serve requests." },
  PROVIDER_ERROR: { status: 502, message: "The identity provider could not complete the request. Try again shortly." },
  UNAVAILABLE: { status: 503, message: "The database does not answer." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export type ErrorStatus = (typeof ERROR_CATALOGUE)[ErrorCode]["status"];
/** The codes a status can carry, for a route description: `codes: ["EMAIL_TAKEN"]` must match its status. */
export type CodeOf<S extends number> = { [C in ErrorCode]: (typeof ERROR_CATALOGUE)[C]["status"] extends S ? C : never }[ErrorCode];

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** Every code of a status, in catalogue order. */
export const codesWithStatus = (status: number): ErrorCode[] => ERROR_CODES.filter((code) => ERROR_CATALOGUE[code].status === status);

export type FieldError = { path: string; message: string };

export type ErrorOptions = {
  message?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** For the operator's log line when the error is answered (src/http/error-envelope.ts); never in the response. */
  log?: { message: string; fields: Record<string, unknown> };
};

export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;
  readonly log: ErrorOptions["log"];

  constructor(
    readonly code: ErrorCode,
    options: ErrorOptions = {},
  ) {
    super(options.message ?? ERROR_CATALOGUE[code].message);
    this.status = ERROR_CATALOGUE[code].status;
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
    this.log = options.log;
  }
}

export const notFound = (what = "Resource") => new ApiError("NOT_FOUND", { message: `${what} not found.` });
export const unauthorized = () => new ApiError("UNAUTHORIZED");
export const validationFailed = (errors: FieldError[]) => new ApiError("VALIDATION_FAILED", { errors });

/** One { path, message } item per problem zod found. */
export const fieldErrors = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): FieldError[] =>
  error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
