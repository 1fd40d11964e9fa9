// The issuers' status-list endpoints, as tests serve them: a spy on globalThis.fetch answers each
// registered URI (test/no-network.ts refuses everything else) and records every request the service made,
// so a test can count fetches and read what was sent.
import { vi } from "vitest";

export type Serve = (request: Request) => Response | Promise<Response>;

/** The body of a Status List Token response: the JWT's text or the CWT's bytes, with the draft's media type. */
export const tokenResponse = (token: string | Uint8Array<ArrayBuffer>, init: ResponseInit = {}) =>
  new Response(token, {
    status: 200,
    ...init,
    headers: { "content-type": typeof token === "string" ? "application/statuslist+jwt" : "application/statuslist+cwt", ...init.headers },
  });

/** Serves `lists` (URI -> answer); returns the requests made to them, in order. */
export function serveStatusLists(lists: Map<string, Serve>) {
  const requests: Request[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const serve = lists.get(request.url);
    if (!serve) return realFetch(input, init);
    requests.push(request);
    return serve(request);
  });
  return requests;
}

/** A fresh URI under the test issuer's status host (each test its own, so no cache is shared between tests). */
export const statusUri = (scheme = "https") => `${scheme}://status.issuer.test/lists/${crypto.randomUUID()}`;
