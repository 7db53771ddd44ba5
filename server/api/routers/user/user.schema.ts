import { z } from "zod";
import { ROLES } from "../../../../db/schema";

export const ZCreateUserInput = z.object({
  email: z.email("Enter a valid email address.").max(320),
  name: z.string().trim().max(120).optional(),
  role: z.enum(ROLES),
  password: z.string().min(8, "Passwords need at least 8 characters.").max(1024),
});
export type TCreateUserInput = z.infer<typeof ZCreateUserInput>;

export const ZUpdateUserInput = z.object({
  id: z.string().min(1),
  role: z.enum(ROLES).optional(),
  disabled: z.boolean().optional(),
  name: z.string().trim().max(120).optional(),
});
export type TUpdateUserInput = z.infer<typeof ZUpdateUserInput>;

/** One user, by id: signing them out everywhere and resetting their password take only that. */
export const ZUserIdInput = z.object({ id: z.string().min(1).max(128) });
export type TUserIdInput = z.infer<typeof ZUserIdInput>;

export const ZChangePasswordInput = z.object({
  current: z.string().min(1, "Enter your current password.").max(1024),
  next: z.string().min(8, "Passwords need at least 8 characters.").max(1024),
});
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;
