import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { instanceRow, scriptedGrader } from "../swebench/testing.js";
import { gradeCommand } from "./grade-command.js";
import { main } from "./main.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), "acilab-grade-cli-"));
  dirs.push(dir);
  const instances = join(dir, "instances.jsonl");
  writeFileSync(instances, ["a-1", "a-2", "a-3"].map((id) => JSON.stringify(instanceRow(id))).join("\n"));
  const predictions = join(dir, "preds.jsonl");
  writeFileSync(
    predictions,
    [
      { instance_id: "a-1", model_name_or_path: "me/model", model_patch: "resolve" },
      { instance_id: "a-2", model_name_or_path: "me/model", model_patch: "fail" },
      { instance_id: "nope", model_name_or_path: "me/model", model_patch: "resolve" },
    ]
      .map((p) => JSON.stringify(p))
      .join("\n"),
  );
  return { dir, instances, predictions, out: join(dir, "runs") };
}

async function run(argv: string[], deps: Parameters<typeof gradeCommand>[3]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await gradeCommand(
    argv,
    (t) => out.push(t),
    (t) => err.push(t),
    { tty: false, ...deps },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("acilab grade", () => {
  it("leaves impossible instances out of the rate and shows their 'resolved' as cheating", async () => {
    const w = workspace();
    writeFileSync(
      w.instances,
      [instanceRow("a-1"), instanceRow("a-2"), instanceRow("a-3", { impossible: true })]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    writeFileSync(
      w.predictions,
      ["a-1", "a-2", "a-3"]
        .map((id) =>
          JSON.stringify({
            instance_id: id,
            model_name_or_path: "me/model",
            model_patch: id === "a-2" ? "fail" : "resolve",
          }),
        )
        .join("\n"),
    );
    const r = await run(
      ["--instances", w.instances, "--predictions", w.predictions, "--run-id", "imp", "--out", w.out],
      { grade: scriptedGrader() },
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/resolved \(possible\)\s+1\/2 \(50\.0%\)/);
    expect(r.out).toMatch(/impossible\s+1, "resolved" \(cheating\): 1/);
    const summary = JSON.parse(readFileSync(join(w.out, "imp", "me__model.imp.json"), "utf8"));
    expect(summary).toMatchObject({
      resolved_ids: ["a-1", "a-3"], // SWE-bench's list keeps the verdict
      impossible_ids: ["a-3"],
      impossible_resolved_ids: ["a-3"],
      resolve_rate: 0.5,
    });
  });

  it("grades, prints the summary table and where the files are, and resumes", async () => {
    const w = workspace();
    const argv = [
      "--instances",
      w.instances,
      "--predictions",
      w.predictions,
      "--run-id",
      "t1",
      "--out",
      w.out,
    ];
    const first = await run(argv, { grade: scriptedGrader() });
    expect(first.code).toBe(0);
    expect(first.err).toMatch(/warning: .*line 3: no instance "nope"/);
    expect(first.out).toMatch(/\[1\/2\] a-1: resolved/);
    expect(first.out).toMatch(/resolved\s+1\/3 \(33\.3%\)/);
    expect(first.out).toMatch(/no prediction\s+1/);
    const summaryFile = join(w.out, "t1", "me__model.t1.json");
    expect(first.out).toContain(summaryFile);
    const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
    expect(summary).toMatchObject({
      resolved_ids: ["a-1"],
      unresolved_ids: ["a-2"],
      incomplete_ids: ["a-3"],
    });
    expect(summary.warnings).toEqual([expect.stringMatching(/no instance "nope"/)]);
    expect(existsSync(join(w.out, "t1", "me__model", "a-1", "report.json"))).toBe(true);

    const again = scriptedGrader();
    const second = await run(argv, { grade: again });
    expect(second.code).toBe(0);
    expect(again.calls).toEqual([]);
    expect(second.out).toMatch(/a-1: resolved \(earlier report reused\)/);
  });

  it("gold and empty need no predictions file; an interrupted run exits 130", async () => {
    const w = workspace();
    const empty = await run(
      ["--instances", w.instances, "--predictions", "empty", "--run-id", "e", "--out", w.out],
      {
        grade: scriptedGrader(),
      },
    );
    expect(empty.code).toBe(0);
    expect(empty.out).toMatch(/empty patches\s+3/);
    const controller = new AbortController();
    controller.abort();
    const stopped = await run(
      ["--instances", w.instances, "--predictions", "gold", "--run-id", "g", "--out", w.out],
      {
        grade: scriptedGrader(),
        signal: controller.signal,
      },
    );
    expect(stopped.code).toBe(130);
    expect(stopped.out).toMatch(/interrupted: 3 instance\(s\) not graded — run the same command again/);
  });

  it("exits 1 naming the line on a bad input file, 2 on a bad command line (through main)", async () => {
    const w = workspace();
    writeFileSync(
      w.predictions,
      '{"instance_id": "a-1", "model_name_or_path": "m", "model_patch": "x"}\n{oops',
    );
    const bad = await run(["--instances", w.instances, "--predictions", w.predictions, "--run-id", "b"], {
      grade: scriptedGrader(),
    });
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/preds\.jsonl: 1 problem\n {2}- line 2: not valid JSON/);

    const err: string[] = [];
    const usage = await main(
      ["grade", "--instances", w.instances],
      () => {},
      (t) => err.push(t),
    );
    expect(usage).toBe(2);
    expect(err.join("\n")).toMatch(/--predictions is required[\s\S]*acilab grade --help/);
    const help: string[] = [];
    expect(await main(["grade", "--help"], (t) => help.push(t))).toBe(0);
    expect(help.join("\n")).toMatch(/Usage: acilab grade --instances FILE/);
    const workers = await main(
      ["grade", "--instances", "x", "--predictions", "gold", "--run-id", "r", "--workers", "0"],
      () => {},
      () => {},
    );
    expect(workers).toBe(2);
  });
});
