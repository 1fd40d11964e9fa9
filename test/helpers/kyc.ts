// KYC fixtures. `verifyKycViaSandbox` goes through the real endpoints (for other areas' tests); the
// Onfido stand-in answers the adapter's outbound calls like Onfido's published v3.6 API does.
import { createExecutionContext, env } from "cloudflare:test";
import { expect, vi } from "vitest";
import { createApp } from "../../src/app";
import { buildRequest, call, readResponse, type CallOptions } from "./http";
import { d1OfAccount } from "./shards";

/** Creates an applicant with `dob` and completes the sandbox check: the account ends VERIFIED (or REJECTED). */
export async function verifyKycViaSandbox(token: string, dob: string, result: "clear" | "consider" = "clear") {
  const created = await call("POST", "/api/kyc/create-applicant", { token, body: { firstName: "Ada", lastName: "Lovelace", dob } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const completed = await call("POST", "/api/kyc/sandbox/complete", { token, body: { result } });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  expect(completed.body.data.status).toBe(result === "clear" ? "VERIFIED" : "REJECTED");
  return { applicantId: created.body.data.applicantId as string };
}

export const ONFIDO_URL = "https://onfido.test/v3.6";

export const onfidoEnv = (overrides: Partial<Env> = {}): Env => ({
  ...env,
  PROVIDER: "onfido",
  ONFIDO_API_URL: ONFIDO_URL,
  ...overrides,
});

/** Like `call`, against an app built with `appEnv` (for example the Onfido configuration). */
export async function callWith<T = any>(appEnv: Env, method: string, path: string, options: CallOptions = {}) {
  return readResponse<T>(await createApp().fetch(buildRequest(method, path, options), appEnv, createExecutionContext()));
}

export type RecordedRequest = { method: string; path: string; authorization: string | null; body: any };
type Answer = { status: number; body: unknown };

/** How a stand-in check ends: its result, the document's date of birth, and the face report's result (null: none). */
export type CheckEnding = {
  result: "clear" | "consider";
  dob?: string | null;
  documentResult?: string;
  face?: "clear" | "consider" | null;
  status?: string;
};

/**
 * Replaces outbound fetch with an in-memory Onfido. `fail` makes every call answer with that status and
 * an error body that quotes personal data, as Onfido's validation errors can.
 */
export function stubOnfido() {
  const requests: RecordedRequest[] = [];
  const checks = new Map<string, Record<string, unknown>>();
  const reports = new Map<string, Record<string, unknown>>();
  const applicants = new Set<string>();
  /** Writes the check's reports as they read once it is done. */
  const finishReports = (check: Record<string, unknown>, options: CheckEnding) => {
    const checkId = check.id as string;
    const [documentId, faceId] = check.report_ids as string[];
    reports.set(documentId!, {
      id: documentId,
      name: "document",
      status: "complete",
      result: options.documentResult ?? options.result,
      sub_result: options.result,
      check_id: checkId,
      properties: {
        date_of_birth: options.dob === undefined ? "1990-04-01" : options.dob,
        first_name: "ADA",
        last_name: "LOVELACE",
        document_type: "passport",
        issuing_country: "GBR",
        // One passport per check, so that stand-in accounts never share a document by accident.
        document_numbers: [{ type: "document_number", value: `P${checkId}` }],
      },
    });
    if (options.face === null) {
      reports.delete(faceId!);
      check.report_ids = [documentId];
    } else {
      reports.set(faceId!, {
        id: faceId,
        name: "facial_similarity_photo",
        status: "complete",
        result: options.face ?? "clear",
        check_id: checkId,
        properties: {},
      });
    }
  };
  const newCheck = (applicantId: string, status: string, result: string | null) => {
    const checkId = crypto.randomUUID();
    const check: Record<string, unknown> = {
      id: checkId,
      created_at: new Date().toISOString(),
      status,
      result,
      applicant_id: applicantId,
      report_ids: [crypto.randomUUID(), crypto.randomUUID()],
      href: `/v3.6/checks/${checkId}`,
    };
    checks.set(checkId, check);
    return check;
  };
  const world = {
    requests,
    fail: null as number | "network" | null,
    /** Ids of the checks created through POST /checks, in order. */
    created: [] as string[],
    /** A completed check with a document and a face report (unless `face: null`); returns the check id. */
    completeCheck(applicantId: string, options: CheckEnding) {
      const check = newCheck(applicantId, options.status ?? "complete", options.result);
      finishReports(check, options);
      return check.id as string;
    },
    /** Completes a check created through POST /checks, as Onfido does once its reports are done. */
    finishCheck(checkId: string, options: CheckEnding) {
      const check = checks.get(checkId);
      if (!check) throw new Error(`no check ${checkId}`);
      Object.assign(check, { status: options.status ?? "complete", result: options.result });
      finishReports(check, options);
    },
  };
  const answer = (request: RecordedRequest): Answer => {
    if (request.method === "POST" && request.path === "/applicants") {
      const id = crypto.randomUUID();
      applicants.add(id);
      return {
        status: 201,
        body: {
          id,
          created_at: new Date().toISOString(),
          first_name: request.body.first_name,
          last_name: request.body.last_name,
          dob: request.body.dob,
          href: `/v3.6/applicants/${id}`,
        },
      };
    }
    // Onfido's update answers the applicant as it now reads; an id it never created is 404.
    const applicant = /^\/applicants\/([^/]+)$/.exec(request.path);
    if (request.method === "PUT" && applicant && applicants.has(applicant[1]!)) {
      const id = applicant[1]!;
      return {
        status: 200,
        body: {
          id,
          first_name: request.body?.first_name,
          last_name: request.body?.last_name,
          dob: request.body?.dob,
          href: `/v3.6/applicants/${id}`,
        },
      };
    }
    if (request.method === "POST" && request.path === "/sdk_token") return { status: 200, body: { token: `sdk.${crypto.randomUUID()}` } };
    if (request.method === "POST" && request.path === "/checks") {
      if (typeof request.body?.applicant_id !== "string" || !Array.isArray(request.body.report_names)) {
        return {
          status: 422,
          body: { error: { type: "validation_error", message: "There was a validation error on this request", fields: {} } },
        };
      }
      const check = newCheck(request.body.applicant_id, "in_progress", null);
      world.created.push(check.id as string);
      return { status: 201, body: check };
    }
    const check = /^\/checks\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && check && checks.has(check[1]!)) return { status: 200, body: checks.get(check[1]!) };
    const report = /^\/reports\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && report && reports.has(report[1]!)) return { status: 200, body: reports.get(report[1]!) };
    return { status: 404, body: { error: { type: "resource_not_found", message: "The resource could not be found." } } };
  };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith(`${ONFIDO_URL}/`)) throw new Error(`unexpected outbound call to ${request.url}`);
    const text = await request.text();
    const recorded: RecordedRequest = {
      method: request.method,
      path: request.url.slice(ONFIDO_URL.length),
      authorization: request.headers.get("authorization"),
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(recorded);
    if (world.fail === "network") throw new TypeError("fetch failed");
    const { status, body } = world.fail
      ? { status: world.fail, body: { error: { type: "validation_error", message: "Ada Lovelace 1815-12-10 is invalid", fields: {} } } }
      : answer(recorded);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
  return world;
}

export const checkCompletedEvent = (checkId: string, action = "check.completed") => ({
  payload: {
    resource_type: "check",
    action,
    object: {
      id: checkId,
      status: "complete",
      completed_at_iso8601: new Date().toISOString(),
      href: `https://api.eu.onfido.com/v3.6/checks/${checkId}`,
    },
  },
});

/**
 * Onfido's X-SHA2-Signature, computed here as Onfido documents it (hex HMAC-SHA256 of the raw body
 * bytes under the webhook token) with Web Crypto directly, not with the product's function: a wrong
 * algorithm or encoding in the product then fails the tests instead of agreeing with itself.
 */
export async function onfidoSignatureOf(rawBody: string | Uint8Array, webhookToken = env.ONFIDO_WEBHOOK_TOKEN!) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(webhookToken), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const bytes = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : rawBody;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, bytes));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Headers Onfido would send with `rawBody`. */
export async function signedHeaders(rawBody: string | Uint8Array, webhookToken = env.ONFIDO_WEBHOOK_TOKEN!) {
  return { "content-type": "application/json", "x-sha2-signature": await onfidoSignatureOf(rawBody, webhookToken) };
}

/**
 * The account's KYC row as stored (status and verified date of birth), read with plain SQL. Whether
 * that date answers a session is the product's query (loadAnswerer, src/domain/verification/answerer.ts), tested through the
 * completion route in test/routes/kyc-to-session.test.ts.
 */
export async function storedKyc(userId: string) {
  return (await d1OfAccount(userId))
    .prepare("SELECT status, verified_dob AS verifiedDob FROM kyc_records WHERE user_id = ?")
    .bind(userId)
    .first<{ status: string; verifiedDob: string | null }>();
}
