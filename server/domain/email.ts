// The length rule of an email address, shared by the users schema (the server's word) and the Users form (said
// as the admin types). Longer addresses cannot be delivered, and one 300-character address pushed every row of
// the users table off the screen.
import { EMAIL_LOCAL_MAX_CHARS, EMAIL_MAX_CHARS } from "./limits";

/** What is wrong with the address's length, or null when it fits. */
export function emailLengthProblem(email: string): string | null {
  const at = email.lastIndexOf("@");
  const local = at < 0 ? email : email.slice(0, at);
  if (local.length > EMAIL_LOCAL_MAX_CHARS) {
    return `Email: the part before the @ has ${local.length} characters; mail systems take at most ${EMAIL_LOCAL_MAX_CHARS}.`;
  }
  if (email.length > EMAIL_MAX_CHARS) return `Email: ${email.length} characters; an address has at most ${EMAIL_MAX_CHARS}.`;
  return null;
}
