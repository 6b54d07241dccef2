import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getCuaTask } from "./catalog.js";
import { cuaScriptedPolicy } from "./policy.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-cua-policy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cuaScriptedPolicy", () => {
  const task = getCuaTask("notify-weekly");

  it("plays the task's reference script for plain `scripted`", () => {
    expect(cuaScriptedPolicy(task, undefined).spec).toBe("scripted:notify-weekly");
  });

  it("reads a steps file, as a list or under `steps`", () => {
    const file = join(dir, "steps.json");
    writeFileSync(file, JSON.stringify({ steps: [{ key: "ArrowDown" }, { done: "ok" }] }));
    expect(cuaScriptedPolicy(task, file).spec).toBe(`scripted:${file}`);
  });

  it("names the file and the bad step when a steps file is wrong", () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify([{ clik: { role: "button", name: "Save" } }]));
    expect(() => cuaScriptedPolicy(task, file)).toThrow(/bad\.json is not a list of computer-use steps/);
    expect(() => cuaScriptedPolicy(task, join(dir, "missing.json"))).toThrow(/cannot read it as JSON/);
  });
});
