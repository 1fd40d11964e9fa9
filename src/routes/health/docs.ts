// The OpenAPI prose of the health check. Called only behind `OPENAPI_METADATA &&`, so esbuild drops it
// from the Worker (the document is a static file; test/node/worker-bundle.test.ts checks).
import * as z from "../../lib/lazy-zod";
import type { OperationDoc } from "../../http/openapi-meta";

export function checkHealthDoc(): OperationDoc {
  return {
    tag: "Health",
    summary: "Liveness, including a D1 round trip",
    responses: {
      200: { description: "The service and its database answer.", data: z.object({ status: z.literal("ok"), version: z.string() }) },
      503: { description: "D1 does not answer.", codes: ["UNAVAILABLE"] },
    },
  };
}
