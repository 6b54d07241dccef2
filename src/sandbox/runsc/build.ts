import { execFileSync } from "node:child_process";
import { PROBE_TIMEOUT_MS } from "../bwrap/detect.js";

/** What `runsc` offers here, read once per process from `runsc --version` and `runsc flags`. */
export interface RunscBuild {
  version: string;
  /** Platforms this build knows (`-platform` in `runsc flags`): ptrace, kvm, systrap (≥ 2023). */
  platforms: string[];
  /** The one acilab uses: systrap where the build has it (much faster syscalls), else ptrace. */
  platform: string;
}

let build: RunscBuild | { error: string } | undefined;

/** runsc's version and platforms, or why it cannot be asked (not installed, broken). */
export function runscBuild(): RunscBuild | { error: string } {
  build ??= (() => {
    try {
      const opts = { encoding: "utf8" as const, timeout: PROBE_TIMEOUT_MS, stdio: "pipe" as const };
      const version = execFileSync("runsc", ["--version"], opts).split("\n")[0]?.trim() || "runsc";
      // `runsc flags` prints to stderr on some builds, stdout on others.
      const flags = execFileSync("sh", ["-c", "runsc flags 2>&1"], opts);
      const line = /-platform string\s*\n\s*(.*)/.exec(flags)?.[1] ?? "";
      const platforms = ["systrap", "ptrace", "kvm"].filter((p) => line.includes(p));
      const platform = platforms.includes("systrap") ? "systrap" : "ptrace";
      return { version, platforms, platform };
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "ENOENT"
        ? { error: "runsc is not installed — apt-get install runsc (gVisor)" }
        : { error: `runsc --version failed: ${(err as Error).message.split("\n")[0]}` };
    }
  })();
  return build;
}
