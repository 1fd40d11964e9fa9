// The OpenAPI prose of the development helpers. Called only behind `OPENAPI_METADATA &&`, so esbuild
// drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import type { OperationDoc } from "../../http/openapi-meta";


export function readOutboxDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Mail sent to an address, newest first",
    devOnly: true,
    responses: { 200: { description: "Messages", data: z.object({ messages: z.array(z.object({ to: z.string(), subject: z.string(), text: z.string(), createdAt: z.string() })) }) } },
  };
}
