import { describe, expect, it } from "vitest";
import { ApiError, ERROR_CATALOGUE, ERROR_CODES, notFound, validationFailed } from "../../src/errors";
import { asset } from "../helpers/static-assets";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: { schemas: Record<string, any> } };

const errorEnums = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => ({
          where: `${method} ${path} ${status}`,
          status: Number(status),
          codes: (response.content["application/json"].schema.allOf?.[1]?.properties.error.enum ?? []) as string[],
        })),
    ),
  );

describe("error catalogue", () => {
  it("gives an ApiError the status and default message of its code", () => {
    const error = new ApiError("EMAIL_NOT_VERIFIED");
    expect(error.status).toBe(403);
    expect(error.message).toBe(ERROR_CATALOGUE.EMAIL_NOT_VERIFIED.message);
    expect(notFound("Key")).toMatchObject({ code: "NOT_FOUND", status: 404, message: "Key not found." });
    expect(validationFailed([{ path: "a", message: "b" }])).toMatchObject({ status: 422, errors: [{ path: "a", message: "b" }] });
  });

  it("is the OpenAPI document's list of codes: the envelope's enum is the catalogue", async () => {
    const doc = (await asset("/api/openapi.json")).body as unknown as Doc;
    expect(doc.components.schemas.ErrorEnvelope.properties.error.enum).toEqual(ERROR_CODES);
  });

  it("documents on every error response only codes of that status", async () => {
    const doc = (await asset("/api/openapi.json")).body as unknown as Doc;
    const enums = errorEnums(doc);
    expect(enums.length).toBeGreaterThan(50);
    for (const { where, status, codes } of enums) {
      expect(codes.length, `${where} names no code`).toBeGreaterThan(0);
      for (const code of codes) {
        expect(ERROR_CODES, `${where}: ${code}`).toContain(code);
        expect(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status, `${where}: ${code}`).toBe(status);
      }
    }
  });
});
