export type OnfidoStandIn = {
  /** The versioned base URL to give the Worker as ONFIDO_API_URL. */
  url: string;
  /** Ids of the checks created through POST /checks, in order. */
  created: string[];
  finishCheck(checkId: string, ending: { result: "clear" | "consider"; dob: string }): void;
  close(): Promise<void>;
};
/** Starts the Onfido API stand-in on a free local port. */
export function startOnfidoStandIn(): Promise<OnfidoStandIn>;
