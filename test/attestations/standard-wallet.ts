// TEST ONLY. The standard OpenID4VCI client (openid4vci-client.ts) as the wallet inside workerd: its
// fetch reaches this Worker (SELF) wherever APP_URL points.
import { SELF } from "cloudflare:test";
import { openid4vciClient } from "./openid4vci-client";

export { newDeviceKey, proofsFor } from "./openid4vci-client";

/** Requests from the client to this Worker, with a client address of their own (per-address limits). */
let address = 0;
export const toWorker = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const headers = new Headers(request.headers);
  headers.set("cf-connecting-ip", `192.0.2.${(++address % 250) + 1}-${Date.now()}`);
  return SELF.fetch(new Request(request, { headers }));
};

export const standardClient = () => openid4vciClient(toWorker);
