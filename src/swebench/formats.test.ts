import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadInstances } from "./load-instances.js";
import { loadPredictions } from "./load-predictions.js";
import { instanceRow, makeInstance } from "./testing.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-swebench-"));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n");

describe("loadInstances", () => {
  it("reads SWE-bench's JSON-string test lists and resolves repo_path against the file's folder", () => {
    const path = file(
      "instances.jsonl",
      `${jsonl([instanceRow("a-1")])}\n\n${jsonl([instanceRow("a-2", { FAIL_TO_PASS: ["x::y"] })])}\n`,
    );
    const [one, two] = loadInstances(path);
    expect(one?.FAIL_TO_PASS).toEqual(["tests/test_x.py::test_a-1"]);
    expect(one?.PASS_TO_PASS).toEqual(["tests/test_x.py::test_old"]);
    expect(two?.FAIL_TO_PASS).toEqual(["x::y"]);
    expect(one?.repo_path).toBe(join(path, "..", "repo"));
    expect(one?.language).toBe("python"); // implied by the pytest log parser
  });

  it("reads a .json list and names the index of a bad row", () => {
    const ok = file("i.json", JSON.stringify([instanceRow("a-1"), instanceRow("a-2")]));
    expect(loadInstances(ok).map((i) => i.instance_id)).toEqual(["a-1", "a-2"]);
    const bad = file("i.json", JSON.stringify([instanceRow("a-1"), instanceRow("a-2", { base_commit: 7 })]));
    expect(() => loadInstances(bad)).toThrow(/index 1 \(a-2\): "base_commit"/);
  });

  it("names the line, the id and the field of every bad row", () => {
    const path = file(
      "instances.jsonl",
      [
        JSON.stringify(instanceRow("a-1")),
        "{not json",
        JSON.stringify(instanceRow("a-3", { PASS_TO_PASS: "not a list" })),
        JSON.stringify(instanceRow("a-4", { log_parser: "junit" })),
      ].join("\n"),
    );
    let message = "";
    try {
      loadInstances(path);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain(path);
    expect(message).toMatch(/line 2: not valid JSON/);
    expect(message).toMatch(/line 3 \(a-3\): "PASS_TO_PASS"/);
    expect(message).toMatch(/line 4 \(a-4\): "log_parser"/);
  });

  it("says which acilab field a plain SWE-bench row lacks and how to add it", () => {
    const { test_command: _, repo_path: __, ...plain } = instanceRow("django__django-11099");
    const path = file("swebench.jsonl", JSON.stringify(plain));
    expect(() => loadInstances(path)).toThrow(
      /line 1 \(django__django-11099\): "test_command" is missing — add "test_command": the argv[\s\S]*"repo_path" is missing — add "repo_path"/,
    );
  });

  it("rejects a duplicate instance id naming both lines", () => {
    const path = file("i.jsonl", jsonl([instanceRow("a-1"), instanceRow("a-2"), instanceRow("a-1")]));
    expect(() => loadInstances(path)).toThrow(/line 3: instance "a-1" is a duplicate of line 1/);
  });

  it("refuses an instance id that cannot be a folder name", () => {
    const path = file("i.jsonl", jsonl([instanceRow("../escape")]));
    expect(() => loadInstances(path)).toThrow(
      /line 1 \(\.\.\/escape\): "instance_id" is used as a folder name/,
    );
  });

  it("refuses unknown extensions and empty files with a fix", () => {
    expect(() => loadInstances(file("i.csv", "x"))).toThrow(/use \.jsonl .* or \.json/);
    expect(() => loadInstances(file("i.jsonl", "\n\n"))).toThrow(/no instances/);
  });
});

describe("loadPredictions", () => {
  const instances = [makeInstance("a-1"), makeInstance("a-2"), makeInstance("a-3")];

  it("reads .jsonl, a .json list and a .json dict keyed by instance id alike", () => {
    const rows = [
      { instance_id: "a-1", model_name_or_path: "m", model_patch: "p1" },
      { instance_id: "a-2", model_name_or_path: "m", model_patch: "p2", cost_usd: 0.5 },
    ];
    const fromJsonl = loadPredictions(file("p.jsonl", jsonl(rows)), instances).predictions;
    const fromList = loadPredictions(file("p.json", JSON.stringify(rows)), instances).predictions;
    const dict = { "a-1": rows[0], "a-2": { model_name_or_path: "m", model_patch: "p2", cost_usd: 0.5 } };
    const fromDict = loadPredictions(file("p.json", JSON.stringify(dict)), instances).predictions;
    expect(fromJsonl).toEqual(rows);
    expect(fromList).toEqual(rows);
    expect(fromDict).toEqual(rows);
  });

  it("gold takes each instance's patch; empty gives every instance an empty patch", () => {
    const gold = loadPredictions("gold", instances).predictions;
    expect(gold.map((p) => [p.model_name_or_path, p.model_patch])).toEqual([
      ["gold", "gold-a-1"],
      ["gold", "gold-a-2"],
      ["gold", "gold-a-3"],
    ]);
    expect(loadPredictions("empty", instances).predictions.every((p) => p.model_patch === "")).toBe(true);
  });

  it("keeps a null model_patch as null (SWE-bench's patch_is_None)", () => {
    const path = file("p.jsonl", jsonl([{ instance_id: "a-1", model_name_or_path: "m", model_patch: null }]));
    expect(loadPredictions(path, instances).predictions[0]?.model_patch).toBeNull();
  });

  it("warns about an unknown instance id with its line and keeps the rest", () => {
    const path = file(
      "p.jsonl",
      jsonl([
        { instance_id: "a-1", model_name_or_path: "m", model_patch: "x" },
        { instance_id: "zzz", model_name_or_path: "m", model_patch: "x" },
      ]),
    );
    const loaded = loadPredictions(path, instances);
    expect(loaded.predictions.map((p) => p.instance_id)).toEqual(["a-1"]);
    expect(loaded.warnings).toEqual([expect.stringMatching(/line 2: no instance "zzz"/)]);
  });

  it("errors on a duplicate (both lines) and on a malformed line (its number)", () => {
    const dup = file(
      "p.jsonl",
      jsonl([
        { instance_id: "a-1", model_name_or_path: "m", model_patch: "x" },
        { instance_id: "a-2", model_name_or_path: "m", model_patch: "x" },
        { instance_id: "a-1", model_name_or_path: "m", model_patch: "y" },
      ]),
    );
    expect(() => loadPredictions(dup, instances)).toThrow(
      /line 3: a second prediction for "a-1" \(first at line 1\)/,
    );
    const broken = file(
      "p.jsonl",
      `${jsonl([{ instance_id: "a-1", model_name_or_path: "m", model_patch: "x" }])}\n{"instance_id": `,
    );
    expect(() => loadPredictions(broken, instances)).toThrow(/line 2: not valid JSON/);
    const noPatch = file("p.jsonl", jsonl([{ instance_id: "a-1", model_name_or_path: "m" }]));
    expect(() => loadPredictions(noPatch, instances)).toThrow(/line 1 \(a-1\): "model_patch"/);
  });
});
