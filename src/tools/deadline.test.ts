import { describe, expect, it } from "vitest";
import { commandWindow, timedOutNote } from "./deadline.js";

describe("a command's clock under the run's deadline", () => {
  const now = 1_000_000;

  it("is the command's own timeout when the run has no deadline or time to spare", () => {
    expect(commandWindow({}, 60_000, now)).toEqual({ ok: true, timeoutMs: 60_000, by: "command" });
    expect(commandWindow({ deadline: now + 90_000 }, 60_000, now)).toEqual({
      ok: true,
      timeoutMs: 60_000,
      by: "command",
    });
  });

  it("is what is left of the run when that is shorter, and says so when it runs out", () => {
    const window = commandWindow({ deadline: now + 1_500 }, 60_000, now);
    expect(window).toEqual({ ok: true, timeoutMs: 1_500, by: "run" });
    if (!window.ok) throw new Error("unreachable");
    expect(timedOutNote(window)).toMatch(
      /^\[stopped at the run's wall-clock limit \(1\.5 s into the command\)/,
    );
    expect(timedOutNote({ ok: true, timeoutMs: 60_000, by: "command" })).toMatch(/^\[timed out after 60 s;/);
  });

  it("refuses to start a command once the deadline has passed", () => {
    const window = commandWindow({ deadline: now }, 60_000, now);
    expect(window.ok).toBe(false);
    if (window.ok) throw new Error("unreachable");
    expect(window.result).toMatchObject({ error: "timeout" });
    expect(window.result.output).toMatch(/not run: the run's wall-clock limit has passed/);
  });
});
