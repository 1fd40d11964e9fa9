import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/errors";
import { OnfidoProvider } from "../../src/providers/onfido";

afterEach(() => vi.restoreAllMocks());

const answer = (status: number, body: unknown) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

async function providerError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("PROVIDER_ERROR");
  expect((error as ApiError).status).toBe(502);
}

describe("Onfido adapter", () => {
  it("appends paths to the versioned base URL, with or without a trailing slash, and sends the token", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(answer(200, { token: "sdk" }));
    await new OnfidoProvider("https://api.eu.onfido.com/v3.6/", "api_sandbox.abc").createSdkToken("app-1");
    const request = new Request(fetchSpy.mock.calls[0]![0] as RequestInfo, fetchSpy.mock.calls[0]![1]);
    expect(request.url).toBe("https://api.eu.onfido.com/v3.6/sdk_token");
    expect(request.headers.get("authorization")).toBe("Token token=api_sandbox.abc");
    expect(await request.json()).toEqual({ applicant_id: "app-1" });
  });

  it("sends only the address fields given", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(answer(201, { id: "app-2" }));
    const id = await new OnfidoProvider("https://onfido.test/v3.6", "t").createApplicant({
      firstName: "A",
      lastName: "B",
      dob: "1990-01-01",
      address: { country: "FRA", postcode: "75001" },
    });
    expect(id).toBe("app-2");
    const body = JSON.parse(fetchSpy.mock.calls[0]![1]!.body as string);
    expect(body).toEqual({ first_name: "A", last_name: "B", dob: "1990-01-01", address: { country: "FRA", postcode: "75001" } });
  });

  it("updates an applicant with PUT /applicants/{id} and the create body (only the address fields given)", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(answer(200, { id: "app 3/x", first_name: "A" }));
    await new OnfidoProvider("https://onfido.test/v3.6/", "t0k").updateApplicant("app 3/x", {
      firstName: "A",
      lastName: "B",
      dob: "1985-03-04",
      address: { country: "GBR", postcode: "SW1Y 4JH", town: "London" },
    });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const request = new Request(fetchSpy.mock.calls[0]![0] as RequestInfo, fetchSpy.mock.calls[0]![1]);
    expect(request.method).toBe("PUT");
    expect(request.url).toBe("https://onfido.test/v3.6/applicants/app%203%2Fx");
    expect(request.headers.get("authorization")).toBe("Token token=t0k");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(await request.json()).toEqual({
      first_name: "A",
      last_name: "B",
      dob: "1985-03-04",
      address: { country: "GBR", postcode: "SW1Y 4JH", town: "London" },
    });
  });

  it("an update answered with an error, another applicant or a body of the wrong shape is PROVIDER_ERROR", async () => {
    const onfido = new OnfidoProvider("https://onfido.test/v3.6", "t");
    const input = { firstName: "A", lastName: "B", dob: "1985-03-04" };
    for (const response of [
      answer(404, { error: { type: "resource_not_found" } }),
      answer(422, { error: { type: "validation_error" } }),
      answer(200, { id: "app-other" }),
      answer(200, { nothing: true }),
    ]) {
      vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(response);
      await providerError(onfido.updateApplicant("app-1", input));
    }
  });

  it("maps an error status, a redirect, a body that is not JSON and a body of the wrong shape to PROVIDER_ERROR", async () => {
    const onfido = new OnfidoProvider("https://onfido.test/v3.6", "t");
    for (const response of [
      answer(401, { error: { type: "authorization_error" } }),
      new Response(null, { status: 302, headers: { location: "https://elsewhere.test/" } }),
      answer(200, "<html>gateway</html>"),
      answer(200, { no_token: true }),
    ]) {
      vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(response);
      await providerError(onfido.createSdkToken("app-1"));
    }
  });

  it("maps a network failure to PROVIDER_ERROR", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("fetch failed"));
    await providerError(new OnfidoProvider("https://onfido.test/v3.6", "t").readCheck("chk"));
  });

  it("reads no report for a check that is not clear", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(answer(200, { id: "chk", applicant_id: "app", status: "complete", result: "consider", report_ids: ["r1"] }));
    const check = await new OnfidoProvider("https://onfido.test/v3.6", "t").readCheck("chk");
    expect(await check.verdict()).toEqual({ result: "rejected" });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it("rejects a clear check whose document date of birth is not a real date", async () => {
    vi.spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(answer(200, { id: "chk", applicant_id: "app", status: "complete", result: "clear", report_ids: ["r1"] }))
      .mockResolvedValueOnce(answer(200, { id: "r1", name: "document", result: "clear", properties: { date_of_birth: "1990-02-30" } }));
    const check = await new OnfidoProvider("https://onfido.test/v3.6", "t").readCheck("chk");
    expect(await check.verdict()).toEqual({ result: "rejected" });
  });
});

describe("Onfido adapter: checks", () => {
  it("creates a check with the document and facial similarity photo reports for the applicant", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(
        answer(201, { id: "chk-1", applicant_id: "app-1", status: "in_progress", result: null, report_ids: ["r1", "r2"] }),
      );
    const started = await new OnfidoProvider("https://onfido.test/v3.6", "t").createCheck("app-1");
    expect(started).toEqual({ checkId: "chk-1", complete: false });
    const request = new Request(fetchSpy.mock.calls[0]![0] as RequestInfo, fetchSpy.mock.calls[0]![1]);
    expect(request.method).toBe("POST");
    expect(request.url).toBe("https://onfido.test/v3.6/checks");
    expect(await request.json()).toEqual({ applicant_id: "app-1", report_names: ["document", "facial_similarity_photo"] });
  });

  it("reads the document number and issuing country for the identity fingerprint; without them the document is null", async () => {
    const check = { id: "chk", applicant_id: "app", status: "complete", result: "clear", report_ids: ["r1", "r2"] };
    const face = { id: "r2", name: "facial_similarity_photo", result: "clear" };
    vi.spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(answer(200, check))
      .mockResolvedValueOnce(
        answer(200, { id: "r1", name: "document", result: "clear", properties: { date_of_birth: "1990-02-28", issuing_country: "GBR" } }),
      )
      .mockResolvedValueOnce(answer(200, face));
    const read = await new OnfidoProvider("https://onfido.test/v3.6", "t").readCheck("chk");
    expect(await read.verdict()).toEqual({ result: "clear", dateOfBirth: "1990-02-28", document: null });
    vi.restoreAllMocks();
  });

  it("accepts any facial similarity variant, but only a clear one", async () => {
    const check = { id: "chk", applicant_id: "app", status: "complete", result: "clear", report_ids: ["r1", "r2"] };
    const document = {
      id: "r1",
      name: "document",
      result: "clear",
      properties: {
        date_of_birth: "1990-02-28",
        issuing_country: "FRA",
        document_numbers: [{ type: "document_number", value: "12AB34567" }],
      },
    };
    for (const [face, verdict] of [
      [
        { id: "r2", name: "facial_similarity_motion", result: "clear" },
        { result: "clear", dateOfBirth: "1990-02-28", document: { number: "12AB34567", issuingCountry: "FRA" } },
      ],
      [{ id: "r2", name: "facial_similarity_photo", result: "consider" }, { result: "rejected" }],
      [{ id: "r2", name: "watchlist_standard", result: "clear" }, { result: "rejected" }],
    ] as const) {
      vi.spyOn(globalThis, "fetch")
        .mockResolvedValueOnce(answer(200, check))
        .mockResolvedValueOnce(answer(200, document))
        .mockResolvedValueOnce(answer(200, face));
      const read = await new OnfidoProvider("https://onfido.test/v3.6", "t").readCheck("chk");
      expect(await read.verdict()).toEqual(verdict);
      vi.restoreAllMocks();
    }
  });
});
