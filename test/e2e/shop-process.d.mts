// The types of shop-process.mjs, free of Node's (the browser tests see the Workers types).
export type ShopProcess = {
  /** http://127.0.0.1:PORT: GET / opens an order and redirects to its checkout page. */
  url: string;
  output(): string;
  stop(): Promise<void>;
};
/** Starts docs/examples/shop/shop.ts against the service at `serviceUrl` (it makes its own test key there). */
export function startShop(serviceUrl: string): Promise<ShopProcess>;
