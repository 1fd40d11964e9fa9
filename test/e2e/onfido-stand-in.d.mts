export type OnfidoStandIn = {
  /** The versioned base URL to give the Worker as ONFIDO_API_URL. */
  url: string;
  /** Ids of the checks created through POST /checks, in order. */
  created: string[];
  /** The applicants as they now read (after any update), by id. */
  applicants: Map<string, { id: string; first_name: string; last_name: string; dob: string }>;
  finishCheck(checkId: string, ending: { result: "clear" | "consider"; dob: string }): void;
  close(): Promise<void>;
};
/** Starts the Onfido API stand-in on a free local port. */
export function startOnfidoStandIn(): Promise<OnfidoStandIn>;
