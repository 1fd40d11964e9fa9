import { describe, expect, it } from "vitest";
import { CreateApplicantBody, applyCompletedCheck } from "../../src/domain/kyc/kyc";
import { todayUtc, yearsBefore } from "../../src/lib/calendar-date";
import { sandboxCheckId } from "../../src/providers/sandbox";
import { call } from "../helpers/http";
import { root, seedAccount } from "../helpers/seed";

describe("applyCompletedCheck", () => {
  it("applies a check once, however often it arrives", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    const created = await call("POST", "/api/kyc/create-applicant", {
      token: account.token,
      body: { firstName: "A", lastName: "B", dob: "1990-01-01" },
    });
    const checkId = sandboxCheckId(created.body.data.applicantId, "consider");
    const outcomes = await Promise.all([1, 2, 3].map(() => applyCompletedCheck(root().onShard(account.shard), checkId)));
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(2);
  });
});

describe("applicant input", () => {
  const base = { firstName: "A", lastName: "B" };
  it("accepts a date of birth exactly 150 years ago and yesterday, but not today", () => {
    const today = todayUtc();
    const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
    expect(CreateApplicantBody.safeParse({ ...base, dob: yearsBefore(today, 150) }).success).toBe(true);
    expect(CreateApplicantBody.safeParse({ ...base, dob: yesterday }).success).toBe(true);
    expect(CreateApplicantBody.safeParse({ ...base, dob: today }).success).toBe(false);
  });

  it("an empty date of birth is one problem, that it is required (not also malformed or too old)", () => {
    const parsed = CreateApplicantBody.safeParse({ ...base, dob: "" });
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["dob", "The date of birth is required."]]);
    const malformed = CreateApplicantBody.safeParse({ ...base, dob: "31/12/1990" });
    expect(malformed.error?.issues.map((issue) => issue.message)).toEqual(["Expected a real date as YYYY-MM-DD."]);
  });

  it("normalises the country code and trims names", () => {
    const parsed = CreateApplicantBody.parse({
      firstName: "  Ada ",
      lastName: "L",
      dob: "1990-01-01",
      address: { country: " deu ", postcode: "10115" },
    });
    expect(parsed).toMatchObject({ firstName: "Ada", address: { country: "DEU", postcode: "10115" } });
  });
});
