// zValidator with the contract's 422 envelope: one { path, message } item per problem.
import { zValidator } from "@hono/zod-validator";
import type { ZodError, ZodType } from "zod";
import { validationFailed, type FieldError } from "../errors";
import { withMeta } from "./openapi-meta";

export const fieldErrors = (error: ZodError): FieldError[] =>
  error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));

const hook = (result: { success: boolean; error?: unknown }) => {
  if (!result.success) throw validationFailed(fieldErrors(result.error as ZodError));
};

export const jsonBody = <S extends ZodType>(schema: S) => withMeta(zValidator("json", schema, hook), { body: schema });

export const queryParams = <S extends ZodType>(schema: S) =>
  withMeta(zValidator("query", schema, hook), { query: schema });
