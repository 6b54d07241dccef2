import { describe, expect, it } from "vitest";
import { defaultBackend, parseBackend } from "./backends.js";

describe("backend choice", () => {
  it("accepts runsc from ACILAB_SANDBOX and --sandbox, never picks it by default", () => {
    expect(defaultBackend({ ACILAB_SANDBOX: "runsc" })).toBe("runsc");
    expect(defaultBackend({})).toBe("auto");
    expect(parseBackend("runsc")).toBe("runsc");
    expect(() => parseBackend("gvisor")).toThrow(/auto, bwrap, process, runsc/);
  });
});
