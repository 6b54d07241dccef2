import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setupFailure, startLogCause } from "./failure.js";

// The exact stderr of the start that failed in CI (runsc 20221219; the gofer could not bind a removed /etc copy).
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

describe("startLogCause", () => {
  const withLogs = (files: Record<string, string[]>, check: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-runsc-log-"));
    try {
      for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, name), lines.join("\n"));
      check(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("gives the boot log's last warning or error, without glog's prefix and the MEMLOCK noise", () => {
    withLogs(
      {
        "runsc.log.20261206-152757.580488.run.txt": ["W1206 15:27:57.1 1 x.go:1] not the boot"],
        "runsc.log.20261206-152757.583588.boot.txt": [
          "I1206 15:27:57.611043   28251 main.go:216] ***************************",
          "I1206 15:27:57.611867   28251 main.go:255] Failed to set RLIMIT_MEMLOCK: operation not permitted",
          "W1206 15:27:57.700000   28251 loader.go:300] creating platform: cannot allocate memory",
          "I1206 15:27:57.700100   28251 main.go:300] exiting",
        ],
      },
      (dir) => expect(startLogCause(dir)).toBe("the sandbox: creating platform: cannot allocate memory"),
    );
  });

  // The CI's second start, as runsc 20221219 logs it when a bind source is gone: the boot's error is
  // only the echo of the gofer's.
  it("names the gofer's fatal error before the boot's echo of it", () => {
    withLogs(
      {
        "runsc.log.20261206-180824.521108.gofer.txt": [
          'I1206 18:08:24.550000       1 gofer.go:457] Mounting src: "/usr", dst: "/proc/root/usr", flags: 0x5001',
          'W1206 18:08:24.555165       1 util.go:64] FATAL ERROR: error setting up FS: mounting {Destination:/workspace Type:bind Source:/tmp/rlws-jS2yiO Options:[rbind rw]}: stat("/tmp/rlws-jS2yiO") failed: stat /tmp/rlws-jS2yiO: no such file or directory',
        ],
        "runsc.log.20261206-180824.523545.boot.txt": [
          "W1206 18:08:24.553067   30551 boot.go:177] Not setting product_name: open /sys/devices/virtual/dmi/id/product_name: no such file or directory",
          "W1206 18:08:24.601628   30551 util.go:64] FATAL ERROR: Error reading mounts file: error unmarshaling mounts: unexpected end of JSON input",
        ],
      },
      (dir) =>
        expect(startLogCause(dir)).toMatch(
          /^the gofer: error setting up FS: mounting .*Source:\/tmp\/rlws-jS2yiO.*no such file or directory$/,
        ),
    );
  });

  it("is undefined when there is no log to read", () => {
    expect(startLogCause("/nonexistent/acilab-logs")).toBeUndefined();
  });
});
