import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bootLogCause, setupFailure } from "./failure.js";

// The exact stderr of the start that failed in CI (runsc 20221219, a loaded machine).
const DIED =
  "running container: creating container: cannot create sandbox: cannot read client sync file: waiting for sandbox to start: EOF";

describe("setupFailure", () => {
  it("reads a silent boot death as runsc's failure that a second start may cure", () => {
    const f = setupFailure(128, false, `some glog line\n${DIED}\n`);
    expect(f?.bootDied).toBe(true);
    expect(f?.message).toContain("waiting for sandbox to start: EOF");
    expect(f?.message).toMatch(/acilab doctor/);
  });

  it("reads a bad mount as runsc's failure that would fail the same way again", () => {
    const f = setupFailure(128, false, "creating container: cannot create gofer: mount /x: no such file\n");
    expect(f).toMatchObject({ bootDied: false });
  });

  it("reads runsc's FATAL ERROR (an unknown platform) as its own failure, not the program's exit 128", () => {
    const stderr =
      "W1206 15:28:46.045866   28445 util.go:64] FATAL ERROR: unknown platform: bogus\nunknown platform: bogus\n";
    expect(setupFailure(128, false, stderr)?.message).toContain("unknown platform: bogus");
  });

  it("leaves the program's own exits alone: 128 with other output, 127, a timeout", () => {
    expect(setupFailure(128, false, "my program says bye\n")).toBeUndefined();
    expect(setupFailure(127, false, DIED)).toBeUndefined();
    expect(setupFailure(128, true, DIED)).toBeUndefined();
  });
});

describe("bootLogCause", () => {
  it("gives the boot log's last warning or error, without glog's prefix and the MEMLOCK noise", () => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-runsc-log-"));
    try {
      writeFileSync(
        join(dir, "runsc.log.20261206-152757.580488.run.txt"),
        "W1206 15:27:57.1 1 x.go:1] not the boot\n",
      );
      writeFileSync(
        join(dir, "runsc.log.20261206-152757.583588.boot.txt"),
        [
          "I1206 15:27:57.611043   28251 main.go:216] ***************************",
          "I1206 15:27:57.611867   28251 main.go:255] Failed to set RLIMIT_MEMLOCK: operation not permitted",
          "W1206 15:27:57.700000   28251 loader.go:300] creating platform: cannot allocate memory",
          "I1206 15:27:57.700100   28251 main.go:300] exiting",
        ].join("\n"),
      );
      expect(bootLogCause(dir)).toBe("creating platform: cannot allocate memory");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is undefined when there is no log to read", () => {
    expect(bootLogCause("/nonexistent/acilab-logs")).toBeUndefined();
  });
});
