// GET /api/attestations/iaca: the IACA root the attestations chain to, as a PEM certificate, for trusted
// lists and relying parties (docs/attestations.md). Public and cacheable; 404 where nothing is issued.
import { attestationSigner } from "../../domain/attestations";
import { notFound } from "../../errors";
import { describe } from "../../http/openapi-meta";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { readIacaDoc } from "./docs";

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
