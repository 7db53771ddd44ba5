import { describe, expect, it } from "vitest";
import { HTTP_STATUS, isServiceError, serviceErrorClass } from "./errors";

describe("a service's own error class", () => {
  const PizzaError = serviceErrorClass<"NOT_FOUND" | "CONFLICT">("PizzaError");

  it("is a ServiceError with its name, code, message and details, so the one middleware maps it", () => {
    const e = new PizzaError("NOT_FOUND", "No pizza called margherita.", { name: "margherita" });
    expect(isServiceError(e)).toBe(true);
    expect(e).toBeInstanceOf(PizzaError);
    expect(e).toBeInstanceOf(Error);
    expect(String(e)).toBe("PizzaError: No pizza called margherita.");
    expect(HTTP_STATUS[e.code]).toBe(404);
    expect(e.details).toEqual({ name: "margherita" });
  });

  it("gives each service its own class: one service's error is not another's", () => {
    const OtherError = serviceErrorClass<"CONFLICT">("OtherError");
    expect(new OtherError("CONFLICT", "x")).not.toBeInstanceOf(PizzaError);
  });
});
