// The account as the API shows it (spec "User"), and the field rules shared by every account route.
import * as z from "../../lib/lazy-zod";
import { USER_TYPES, type UserRow } from "../../db/schema";

export const User = z.object({
  id: z.string(),
  email: z.email(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  companyName: z.nullable(z.string()),
  userType: z.enum(USER_TYPES),
  emailVerified: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type User = z.infer<typeof User>;

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  companyName: row.companyName,
  userType: row.userType,
  emailVerified: row.emailVerified,
  createdAt: row.createdAt,
});

/** Emails are trimmed and lower-cased before validation, so comparisons and uniqueness agree. */
export const EmailField = z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254)), z.email("Enter a valid email address."));
export const PasswordField = z
  .string()
  .check(z.minLength(8, "Use at least 8 characters."), z.maxLength(128, "Use at most 128 characters."));
export const NameField = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
// An address leads to its account through the home shard's directory: src/domain/accounts/account-directory.ts.
