// PATCH /api/users/me: names, and the company name of a business account.
import { eq } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { users, type UserRow } from "../../db/schema";
import { validationFailed } from "../../errors";
import { nowIso } from "../../lib/time";
import type { ServiceContext } from "../../context/service-context";
import { NameField, toUser } from "./users";

export const ProfileInput = z
  .object({
    firstName: z.optional(z.nullable(NameField)),
    lastName: z.optional(z.nullable(NameField)),
    companyName: z.optional(NameField),
  })
  .check(
    z.refine((input) => Object.values(input).some((value) => value !== undefined), {
      message: "Send at least one of firstName, lastName, companyName.",
    }),
  );

export async function updateProfile({ db }: ServiceContext, user: UserRow, input: z.infer<typeof ProfileInput>) {
  if (input.companyName !== undefined && user.userType !== "BUSINESS") {
    throw validationFailed([{ path: "companyName", message: "Only a business account has a company name." }]);
  }
  const [row] = await db
    .update(users)
    .set({ ...input, updatedAt: nowIso() })
    .where(eq(users.id, user.id))
    .returning();
  return toUser(row!);
}
