export type CheckoutSite = {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Serves `html` at `path` with this Content-Security-Policy header. */
  set(path: string, html: string, policy: string): void;
  close(): Promise<void>;
};
/** Starts a merchant site whose pages the test sets (checkout pages with the drop-in). */
export function startCheckoutSite(): Promise<CheckoutSite>;
