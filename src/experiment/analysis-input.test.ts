import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readAttemptTrajectory } from "./analysis-input.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-analysis-input-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const START = `${JSON.stringify({ type: "run_start", policy: "scripted" })}\n`;
const END = `${JSON.stringify({ type: "run_end", stop_reason: "submitted" })}\n`;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("readAttemptTrajectory", () => {
  it("tells a whole trajectory from a missing, torn, unfinished or broken one", () => {
    expect(readAttemptTrajectory(file("ok.jsonl", START + END))).toMatchObject({ state: "ok", warnings: [] });
    expect(readAttemptTrajectory(join(dir, "gone.jsonl"))).toMatchObject({ state: "missing", records: null });
    const torn = readAttemptTrajectory(file("torn.jsonl", `${START}{"type":"tu`));
    expect(torn.state).toBe("truncated");
    expect(torn.records).toHaveLength(1);
    expect(readAttemptTrajectory(file("open.jsonl", START)).state).toBe("truncated"); // no run_end
    expect(readAttemptTrajectory(file("broken.jsonl", `${START}{oops\n${END}`)).state).toBe("unreadable");
  });

  it("does not follow a symlink where a trajectory should be", () => {
    const link = join(dir, "link.jsonl");
    symlinkSync("/etc/passwd", link);
    expect(readAttemptTrajectory(link)).toMatchObject({ state: "unreadable", records: null });
  });
});
