import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { drain, killGroup } from "./child.js";

it("drain reads output that arrived while the event loop was busy, even past its grace", async () => {
  const dir = mkdtempSync(join(tmpdir(), "acilab-drain-"));
  const go = join(dir, "go");
  const written = join(dir, "written");
  // The command exits at once; a grandchild keeps its stdout open (so the pipe never closes and the
  // grace decides), writes "late" once told to, then lingers.
  const child = spawn(
    "sh",
    [
      "-c",
      `(while [ ! -e ${go} ]; do sleep 0.01; done; echo late; touch ${written}; exec sleep 60) & exit 0`,
    ],
    { stdio: ["ignore", "pipe", "ignore"], detached: true },
  );
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => {
    out += d;
  });
  try {
    await new Promise((r) => child.once("exit", r));
    const drained = drain(child.stdout);
    writeFileSync(go, "");
    // Busy (synchronously) until the line is in the pipe and the grace has run out: the loop's next
    // turn finds the grace timer due and the line unread.
    const started = performance.now();
    while (!existsSync(written) || performance.now() - started < 400) {
      /* the loop is busy elsewhere */
    }
    await drained;
    expect(out).toBe("late\n");
    expect(child.stdout.destroyed).toBe(true);
  } finally {
    killGroup(child.pid);
    rmSync(dir, { recursive: true, force: true });
  }
});
