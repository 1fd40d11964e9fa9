// The interface version: /api/health reports it and the OpenAPI document carries it (info.version).
// A module of its own so the Worker can import it without the document builder (openapi-document.ts),
// which is not part of the Worker's script (docs/performance.md).
export const API_VERSION = "1.2.0";
