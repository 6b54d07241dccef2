import { describe, expect, it } from "vitest";
import { runCli } from "./testing.js";

const cli = (argv: string[]) => runCli(argv);

describe("acilab cua", () => {
  it("prints its help, and refuses bad options before starting a browser", async () => {
    expect((await cli(["cua", "--help"])).out).toContain("--observe");
    const bad = await cli(["cua", "--task", "notify-weekly", "--resolution", "1400by800"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--resolution 1400by800: resolution must be WIDTHxHEIGHT");
    const unknown = await cli(["cua", "--task", "no-such-task"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown computer-use task "no-such-task"');
    expect((await cli(["cua", "--task", "all", "--observe", "pixels"])).err).toContain(
      '--observe pixels: no observation kind "pixels" — use screenshot, a11y, som, dom',
    );
  });

  it("names the task file, the field and the fix when a --task file is wrong", async () => {
    const r = await cli(["cua", "--task", "./no-such-dir/task.yaml"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no-such-dir/task.yaml: no such file or folder");
  });

  it("lists the shipped task files after the built-in tasks", async () => {
    const r = await cli(["tasks", "list", "--json"]);
    const rows = JSON.parse(r.out) as Array<{ id: string; kind: string; app?: string }>;
    expect(rows.filter((t) => t.app === "static").map((t) => t.id)).toContain("date-picker");
    const none = await cli(["tasks", "list", "--cua-dir", "./no-such-dir"]);
    expect(none.code).toBe(1);
  });

  it("dispatches image-size to the loop's command", async () => {
    const r = await cli(["cua", "image-size", "--screen", "1920x1080", "--tier", "standard"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("1456×819");
  });

  it('lists the computer-use tasks in "tasks list --json" with kind "cua"', async () => {
    const r = await cli(["tasks", "list", "--json"]);
    const rows = JSON.parse(r.out) as Array<{ id: string; kind: string }>;
    const cua = rows.filter((t) => t.kind === "cua").map((t) => t.id);
    expect(cua.length).toBeGreaterThanOrEqual(8);
    expect(cua).toContain("ticket-injection");
    expect(rows.filter((t) => t.kind !== "cua").every((t) => t.kind === "coding")).toBe(true);
  });
});
