import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { frameBudget, readRunFolder } from "./inspect-read.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-inspect-read-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const png = (shade: number) =>
  sharp({ create: { width: 800, height: 500, channels: 3, background: { r: shade, g: 90, b: 160 } } })
    .png()
    .toBuffer();

/** A computer-use run folder: a trajectory whose turns name `frames`, each written if given bytes. */
async function runFolder(frames: Record<string, Buffer | "symlink-out" | "not-written">): Promise<void> {
  mkdirSync(join(dir, "frames"));
  const turns = Object.keys(frames).map((ref, i) =>
    JSON.stringify({ type: "turn", step: i + 1, actions: [], cua: { frame: ref } }),
  );
  writeFileSync(join(dir, "trajectory.jsonl"), `${[...turns, '{"type":"run_end"}'].join("\n")}\n`);
  for (const [ref, bytes] of Object.entries(frames)) {
    if (bytes === "symlink-out") symlinkSync("/etc/hostname", join(dir, ref));
    else if (bytes !== "not-written") writeFileSync(join(dir, ref), bytes);
  }
}

describe("readRunFolder", () => {
  it("embeds frames as small JPEGs and says nothing of files a run does not write", async () => {
    await runFolder({ "frames/step-001.png": await png(10), "frames/step-002.png": await png(200) });
    const files = await readRunFolder(dir, frameBudget());
    expect([...files.frames.keys()]).toEqual(["frames/step-001.png", "frames/step-002.png"]);
    expect(files.frames.get("frames/step-001.png")).toMatch(/^data:image\/jpeg;base64,/);
    // No result.json, patch.diff or report.json here: absent, not a warning.
    expect(files.warnings).toEqual([]);
  });

  it("stops decoding once the page's frame budget is spent, and says so once", async () => {
    await runFolder({ "frames/step-001.png": await png(10), "frames/step-002.png": await png(200) });
    const files = await readRunFolder(dir, frameBudget(1));
    expect(files.frames.size).toBe(0);
    expect([...files.framesLeftOut]).toEqual(["frames/step-001.png", "frames/step-002.png"]);
    expect(files.warnings).toHaveLength(1);
    expect(files.warnings[0]).toMatch(/^2 frame\(s\) left out: the page's 48 MB of frames is spent/);
  });

  it("reads nothing outside the run folder, and tells the reader in its own words", async () => {
    // A ref that climbs out of the folder is refused before anything is opened: nothing is written there.
    await runFolder({ "frames/step-001.png": "symlink-out", "../outside.png": "not-written" });
    mkdirSync(join(dir, "patch.diff"));
    const files = await readRunFolder(dir, frameBudget());
    expect(files.frames.size).toBe(0);
    expect(files.warnings).toEqual([
      "patch.diff is a directory, not a file: not shown",
      "frame frames/step-001.png points outside the run folder: not shown",
      "frame ../outside.png points outside the run folder: not shown",
    ]);
  });
});
