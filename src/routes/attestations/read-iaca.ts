// GET /api/attestations/iaca: the IACA root the attestations chain to, as a PEM certificate, for trusted
// lists and relying parties (docs/attestations.md). Public and cacheable; 404 where nothing is issued.
import { attestationSigner } from "../../domain/attestations";
import { notFound } from "../../errors";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/iaca", limits: {} } as const satisfies RouteSpec;

export const readIacaRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, readIacaDoc())), async function readIaca(c) {
    const signer = await attestationSigner(c.var.ctx.settings);
    if (!signer) throw notFound("Route");
    return new Response(signer.iacaPem, {
      headers: {
        "Content-Type": "application/pem-certificate-chain",
        "Cache-Control": "public, max-age=3600",
        "Access-Control-Allow-Origin": "*",
      },
    });
  }),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function readIacaDoc(): OperationDoc {
  return {
    tag: "Attestations",
    summary: "The IACA root certificate of the proof-of-age attestations this service issues",
    description:
      "The root the attestations' document signer chains to, as a PEM certificate: what a trusted list or a relying party adds to its trust anchors to accept this service's attestations. Public and cacheable. docs/attestations.md.",
    responses: {
      200: { description: "The IACA root (PEM)", content: { type: "application/pem-certificate-chain", schema: { type: "string" } } },
      404: { description: "This deployment issues no attestations", codes: ["NOT_FOUND"] },
    },
  };
}
