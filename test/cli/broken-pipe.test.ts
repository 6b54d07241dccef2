/**
 * The installed launcher with its output piped into a reader that does not read (`acilab … | head`):
 * it stops quietly with its own status, not with node's "Unhandled 'error' event … EPIPE".
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const built = existsSync(join(root, "dist", "src", "cli", "main.js"));

describe.skipIf(!built)("bin/acilab.js into a closed pipe", () => {
  it("exits 0 with nothing on stderr", () => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-pipe-"));
    try {
      const err = join(dir, "stderr");
      const out = execFileSync(
        "bash",
        ["-c", `node bin/acilab.js env --help 2>"$1" | true; echo "rc=\${PIPESTATUS[0]}"`, "bash", err],
        { cwd: root, encoding: "utf8" },
      );
      expect(out.trim()).toBe("rc=0");
      expect(readFileSync(err, "utf8")).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
