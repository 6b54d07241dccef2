import { describe, expect, it } from "vitest";
import { benchGrading } from "./grading.js";

describe("benchGrading", () => {
  it("parses every synthetic log for real and reports the time in ms", async () => {
    const rows = await benchGrading({ repeats: 1 });
    const byName = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
    // 2,294 logs × 50 tests, minus the ~3% printed as skipped (by location, which carries no id).
    expect(byName("grading: test statuses parsed")?.value).toBeGreaterThan(2_294 * 45);
    expect(byName("grading: resolved in the synthetic set")?.value).toBeGreaterThan(0);
    expect(byName("grading: parse + score + summary")?.unit).toBe("ms");
    expect(byName("grading: parse + score + summary")?.value).toBeGreaterThan(0);
  });
});
