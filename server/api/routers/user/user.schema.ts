import { z } from "zod";
import { ROLES } from "../../../../db/schema";
import { emailLengthProblem } from "../../../domain/email";
import { USER_NAME_MAX_CHARS } from "../../../domain/limits";
import { TENANT_NAME_MAX, TENANTS_PER_USER_MAX } from "../../../domain/tenants";
import { MIN_PASSWORD_CHARS } from "../../../services/users/passwords";

// Each message names its field: the line under the form is all the admin sees (server/api/input-errors.ts).
const email = z
  .email("Email: enter an address such as name@example.com.")
  .superRefine((v, ctx) => {
    const problem = emailLengthProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** Empty is no name; spaces alone are refused rather than stored as a name nobody can see. */
const userName = z
  .string()
  .refine((s) => s === "" || s.trim() !== "", "Name: only spaces; type a name or leave the field empty.")
  .trim()
  .max(USER_NAME_MAX_CHARS, `Name: at most ${USER_NAME_MAX_CHARS} characters.`);

const password = z
  .string()
  .min(MIN_PASSWORD_CHARS, `Password: at least ${MIN_PASSWORD_CHARS} characters.`)
  .max(1024, "Password: at most 1024 characters.")
  .refine((s) => s.trim() !== "", "Password: not only spaces.");

export const ZCreateUserInput = z.object({
  email,
  name: userName.optional(),
  role: z.enum(ROLES),
  password,
});
export type TCreateUserInput = z.infer<typeof ZCreateUserInput>;

export const ZUpdateUserInput = z.object({
  id: z.string().min(1),
  role: z.enum(ROLES).optional(),
  disabled: z.boolean().optional(),
  name: userName.optional(),
});
export type TUpdateUserInput = z.infer<typeof ZUpdateUserInput>;

/** One user, by id: signing them out everywhere and resetting their password take only that. */
export const ZUserIdInput = z.object({ id: z.string().min(1).max(128) });
export type TUserIdInput = z.infer<typeof ZUserIdInput>;

export const ZChangePasswordInput = z.object({
  current: z.string().min(1, "Enter your current password.").max(1024),
  next: password,
});
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;

/** A user's tenants, replaced as a whole (issue #40); each name is checked by the tenants service. */
export const ZSetTenantsInput = z.object({
  id: z.string().min(1).max(128),
  tenants: z.array(z.string().max(TENANT_NAME_MAX, `Tenant: at most ${TENANT_NAME_MAX} characters.`)).max(TENANTS_PER_USER_MAX, `Tenants: at most ${TENANTS_PER_USER_MAX}.`),
});
export type TSetTenantsInput = z.infer<typeof ZSetTenantsInput>;
