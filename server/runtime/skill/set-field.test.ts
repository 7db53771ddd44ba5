import { describe, expect, it } from "vitest";
import { setFrontmatterField, SetFieldError } from "./set-field";

describe("setFrontmatterField", () => {
  it("changes one field and keeps the other fields, comments and the body byte for byte", () => {
    const text = "---\nname: pdf-forms # the folder name\ndescription: Old words.\nallowed-tools: Read Bash(python3:*)\n---\n# Body\n\nKeep: this --- and that.\n";
    const out = setFrontmatterField(text, "description", "Fill PDF forms: field by field. Use when a form is given.");
    expect(out).toBe("---\nname: pdf-forms # the folder name\ndescription: \"Fill PDF forms: field by field. Use when a form is given.\"\nallowed-tools: Read Bash(python3:*)\n---\n# Body\n\nKeep: this --- and that.\n");
  });

  it("keeps CRLF files CRLF and refuses text without frontmatter", () => {
    expect(setFrontmatterField("---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n", "description", "c")).toBe("---\r\nname: a\r\ndescription: c\r\n---\r\nbody\r\n");
    expect(() => setFrontmatterField("# no frontmatter", "description", "x")).toThrow(SetFieldError);
  });
});
