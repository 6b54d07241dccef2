import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listCuaTasks } from "../cua/index.js";
import { listTaskIds } from "../tasks/index.js";
import { resolveTasks } from "./tasks.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-experiment-tasks-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One SWE-bench instance with the fields acilab needs; its repository is not opened when resolving. */
function instanceRow(id: string) {
  return JSON.stringify({
    instance_id: id,
    repo: "local/demo",
    base_commit: "0123456789abcdef0123456789abcdef01234567",
    test_patch: "",
    FAIL_TO_PASS: ["test_a"],
    PASS_TO_PASS: [],
    test_command: ["python", "-m", "pytest"],
    log_parser: "pytest",
    repo_path: "demo.bundle",
  });
}

describe("resolveTasks", () => {
  const file = () => join(dir, "e.yaml");

  it("expands ids, globs, the built-in suite and the computer-use tasks, in order, without duplicates", () => {
    const { tasks, problems } = resolveTasks(
      ["median-even", "semver-*", { suite: "builtin" }, "acme", { cua: "all" }, "notify-weekly"],
      file(),
    );
    expect(problems).toEqual([]);
    const semver = listTaskIds().filter((id) => id.startsWith("semver-"));
    const rest = listTaskIds().filter((id) => id !== "median-even" && !id.startsWith("semver-"));
    expect(tasks.map((t) => t.id)).toEqual([
      "median-even",
      ...semver,
      ...rest,
      "acme",
      ...listCuaTasks().map((t) => t.id),
    ]);
    expect(tasks.find((t) => t.id === "acme")).toEqual({ kind: "tools", id: "acme", source: "builtin" });
    expect(tasks.find((t) => t.id === "notify-weekly")?.kind).toBe("cua");
  });

  it("reads an instances file relative to the experiment file, its tasks sourced from that file", () => {
    writeFileSync(join(dir, "mine.jsonl"), `${instanceRow("demo-1")}\n${instanceRow("demo-2")}\n`);
    const { tasks, problems } = resolveTasks([{ instances: "mine.jsonl" }], file());
    expect(problems).toEqual([]);
    expect(tasks).toEqual([
      { kind: "coding", id: "demo-1", source: join(dir, "mine.jsonl") },
      { kind: "coding", id: "demo-2", source: join(dir, "mine.jsonl") },
    ]);
  });

  it("refuses one id from two sources (a built-in task and an exported copy of it)", () => {
    writeFileSync(join(dir, "copy.jsonl"), `${instanceRow("median-even")}\n`);
    const { problems } = resolveTasks(["median-even", { instances: "copy.jsonl" }], file());
    expect(problems).toEqual([
      {
        path: ["tasks", 1, "instances"],
        message: `task "median-even" comes from both builtin and ${join(dir, "copy.jsonl")} — keep one of them`,
      },
    ]);
  });

  it("reads computer-use task files: a path entry or {cua: PATH}, relative to the experiment file", () => {
    for (const id of ["one", "two"]) {
      mkdirSync(join(dir, "cua", id, "site"), { recursive: true });
      writeFileSync(
        join(dir, "cua", id, "task.yaml"),
        `id: ${id}\ninstruction: x\napp: { static: ./site }\ngrade: { js: window.REWARD }\n`,
      );
    }
    const { tasks, problems } = resolveTasks(["./cua/one/task.yaml", { cua: "./cua" }], file());
    expect(problems).toEqual([]);
    expect(tasks).toEqual([
      { kind: "cua", id: "one", source: join(dir, "cua", "one", "task.yaml") },
      { kind: "cua", id: "two", source: join(dir, "cua", "two", "task.yaml") },
    ]);
    const broken = resolveTasks([{ cua: "./nowhere" }], file()).problems[0]?.message;
    expect(broken).toContain("no such file or folder");
  });

  it("says what is wrong with an instances file that does not load", () => {
    writeFileSync(join(dir, "bad.jsonl"), '{"instance_id": "x"}\n');
    const { problems } = resolveTasks([{ instances: "bad.jsonl" }], file());
    expect(problems[0]?.message).toMatch(/^instances file "bad.jsonl": x cannot run here: "repo" is missing/);
  });

  it("picks rows of an instances file by ids or by a glob, and names an id the file lacks", () => {
    writeFileSync(
      join(dir, "inst.jsonl"),
      `${instanceRow("demo-1")}\n${instanceRow("demo-2")}\n${instanceRow("other-1")}\n`,
    );
    const ids = ["demo-2", "other-1"];
    expect(resolveTasks([{ instances: "inst.jsonl", ids }], file()).tasks.map((t) => t.id)).toEqual(ids);
    expect(
      resolveTasks([{ instances: "inst.jsonl", match: "demo-*" }], file()).tasks.map((t) => t.id),
    ).toEqual(["demo-1", "demo-2"]);
    expect(resolveTasks([{ instances: "inst.jsonl", ids: ["nope"] }], file()).problems[0]?.message).toMatch(
      /no instance "nope" in inst\.jsonl/,
    );
    expect(resolveTasks([{ instances: "inst.jsonl", ids, match: "x*" }], file()).problems[0]?.message).toBe(
      "give ids or match, not both",
    );
  });

  it("names every other shape of entry it cannot read", () => {
    const { problems } = resolveTasks(
      [42, { cua: "some" }, { suit: "builtin" }, { suite: "builtin", cua: "all" }],
      file(),
    );
    expect(problems.map((p) => p.message)).toEqual([
      "a task entry is a task id, a glob such as semver-*, {suite: builtin}, {instances: FILE} (with ids: [...] or match: GLOB), {cua: all} or a task file path ({cua: PATH})",
      "{cua: some}: write {cua: all}, {cua: ./PATH} (task files), or list computer-use ids as plain entries",
      "unknown entry {suit: …} — a task entry is a task id, a glob such as semver-*, {suite: builtin}, {instances: FILE} (with ids: [...] or match: GLOB), {cua: all} or a task file path ({cua: PATH})",
      "a task entry is a task id, a glob such as semver-*, {suite: builtin}, {instances: FILE} (with ids: [...] or match: GLOB), {cua: all} or a task file path ({cua: PATH})",
    ]);
  });
});
