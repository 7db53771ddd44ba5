import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorText } from "./list-actions";

// The shape server/api/trpc.ts's formatter sends for a refused input: zod's flattened error under data.zodError.
const refused = (input: unknown) => {
  const r = z.object({ email: z.email("Enter an email address."), password: z.string().min(8, "At least 8 characters.") }).safeParse(input);
  return { message: "the raw zod issue list", data: { zodError: z.flattenError(r.error!) } };
};

describe("errorText", () => {
  it("says which fields were refused, not the raw issue list", () => {
    expect(errorText(refused({ email: "x", password: "short" }))).toBe("Enter an email address. At least 8 characters.");
  });

  it("says the server's message when no field is to blame", () => {
    expect(errorText({ message: "A user with this email exists.", data: { zodError: null } })).toBe("A user with this email exists.");
    expect(errorText({ message: "Unknown user", data: { zodError: { fieldErrors: {} } } })).toBe("Unknown user");
  });
});
