export type ReturnSite = {
  /** http://127.0.0.1:<port>: its /back is allowed as a return_url in the development configuration. */
  origin: string;
  /** The path and query of every request received, in order. */
  visits: string[];
  close(): Promise<void>;
};
/** Starts a merchant site whose GET /back answers a page titled "Back at the shop". */
export function startReturnSite(): Promise<ReturnSite>;
