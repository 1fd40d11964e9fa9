// A local stand-in for Onfido's API (v3.6) for the Onfido-mode browser tests: applicants (created and
// updated), SDK tokens, checks created by POST /checks and finished by the test, and their reports. Plain JavaScript for the
// same reason as test/tools/dev-server.mjs (Node's http, no @types/node in the project).
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";

export async function startOnfidoStandIn() {
  const checks = new Map();
  const reports = new Map();
  const created = [];

  const applicants = new Map();

  const answer = (method, path, body) => {
    if (method === "POST" && path === "/applicants") {
      const applicant = { id: randomUUID(), first_name: body.first_name, last_name: body.last_name, dob: body.dob };
      applicants.set(applicant.id, applicant);
      return [201, applicant];
    }
    // A correction after a refused check (PUT /api/kyc/applicant): Onfido's update answers the applicant.
    const applicant = /^\/applicants\/([^/]+)$/.exec(path);
    if (method === "PUT" && applicant && applicants.has(applicant[1])) {
      const updated = { ...applicants.get(applicant[1]), first_name: body.first_name, last_name: body.last_name, dob: body.dob };
      applicants.set(updated.id, updated);
      return [200, updated];
    }
    if (method === "POST" && path === "/sdk_token") return [200, { token: `sdk.${randomUUID()}` }];
    if (method === "POST" && path === "/checks") {
      const check = {
        id: randomUUID(),
        applicant_id: body.applicant_id,
        status: "in_progress",
        result: null,
        report_ids: [randomUUID(), randomUUID()],
        report_names: body.report_names,
      };
      checks.set(check.id, check);
      created.push(check.id);
      return [201, check];
    }
    const check = /^\/checks\/([^/]+)$/.exec(path);
    if (method === "GET" && check && checks.has(check[1])) return [200, checks.get(check[1])];
    const report = /^\/reports\/([^/]+)$/.exec(path);
    if (method === "GET" && report && reports.has(report[1])) return [200, reports.get(report[1])];
    return [404, { error: { type: "resource_not_found" } }];
  };

  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      const path = (request.url ?? "").replace(/^\/v3\.6/, "");
      let status = 400;
      let body = { error: { type: "validation_error" } };
      try {
        [status, body] = answer(request.method, path, text ? JSON.parse(text) : {});
      } catch {
        /* a body that is not JSON: 400 */
      }
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();

  return {
    url: `http://127.0.0.1:${port}/v3.6`,
    created,
    /** The applicants as they now read (after any update), by id. */
    applicants,
    /** Completes a created check: its result, and the document's date of birth. */
    finishCheck(checkId, { result, dob }) {
      const check = checks.get(checkId);
      Object.assign(check, { status: "complete", result });
      const [documentId, faceId] = check.report_ids;
      reports.set(documentId, { id: documentId, name: "document", status: "complete", result, properties: { date_of_birth: dob } });
      reports.set(faceId, { id: faceId, name: "facial_similarity_photo", status: "complete", result, properties: {} });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
