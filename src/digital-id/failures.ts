// The two ways a wallet's answer is refused (docs/api-contract.md §Digital ID): it did not verify for this request, or it
// verified and decides nothing. Messages name the check that failed and never a value of the credential.
import { ApiError } from "../errors";

export const invalid = (message: string) => new ApiError("DIGITAL_ID_INVALID", { message: `The digital ID did not verify: ${message}` });

export const insufficient = (message: string) => new ApiError("DIGITAL_ID_INSUFFICIENT", { message });
