import { describe, expect, it } from "vitest";
import { importButtonLabel } from "./import-skill-label";

describe("the import button", () => {
  it("says it cannot import what would not load or would overwrite a folder, and warns of problems it can load with", () => {
    expect(importButtonLabel({ loadable: false, valid: false, exists: false })).toBe("Cannot import");
    expect(importButtonLabel({ loadable: true, valid: true, exists: true })).toBe("Cannot import");
    expect(importButtonLabel({ loadable: true, valid: false, exists: false })).toBe("Import with warnings");
    expect(importButtonLabel({ loadable: true, valid: true, exists: false })).toBe("Import");
  });
});
