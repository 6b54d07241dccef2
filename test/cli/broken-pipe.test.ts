/**
 * The installed launcher with its output piped into a reader that has already gone (`acilab … |
 * head`): it stops quietly with its own status, not with node's "Unhandled 'error' event … EPIPE".
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { needing } from "../../src/testing/needs.js";

const root = join(import.meta.dirname, "..", "..");
const built = existsSync(join(root, "dist", "src", "cli", "main.js"));

needing("build", !built && "dist/ is not built: npm run build").describe(
  "bin/acilab.js into a closed pipe",
  () => {
    it("exits 0 with nothing on stderr", async () => {
      const child = spawn(process.execPath, ["bin/acilab.js", "env", "--help"], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      });
      // The read end is closed before the child has run a line of JavaScript: its first write fails.
      child.stdout.destroy();
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(stderr).toBe("");
      expect(code).toBe(0);
    });
  },
);
