import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "./args.js";
import { taskOption } from "./cua-options.js";
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

  it("takes a name that is a folder here as that folder, and keeps a broken file of it as a row", () => {
    // A folder in the current directory, named without ./ (the way a user types it).
    const dir = mkdtempSync(join(process.cwd(), "acilab-cua-folder-"));
    try {
      mkdirSync(join(dir, "site"));
      writeFileSync(
        join(dir, "good.yaml"),
        "id: good\ninstruction: Press Go.\napp: { static: ./site }\ngrade: { js: window.REWARD }\n",
      );
      writeFileSync(
        join(dir, "bad.yaml"),
        "id: bad\ninstruction: x\napp: { static: ./nowhere }\ngrade: { js: 1 }\n",
      );
      const choice = taskOption(basename(dir));
      expect(choice.tasks.map((t) => t.id)).toEqual(["good"]);
      expect(choice.broken.map((p) => p.message)).toEqual([
        expect.stringMatching(/bad\.yaml:4:14: grade\.js: /),
      ]);
      // A built-in id is still the built-in task; an unknown name says it is no file or folder here.
      expect(taskOption("notify-weekly").tasks.map((t) => t.id)).toEqual(["notify-weekly"]);
      expect(() => taskOption("no-such-task-or-folder")).toThrow(
        /unknown computer-use task "no-such-task-or-folder".*there is no file or folder "no-such-task-or-folder" here/,
      );
      // A folder where nothing loads, or a broken file named on its own, is a usage error.
      rmSync(join(dir, "good.yaml"));
      expect(() => taskOption(basename(dir))).toThrow(UsageError);
      expect(() => taskOption(join(dir, "bad.yaml"))).toThrow(/bad\.yaml:4:14/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
