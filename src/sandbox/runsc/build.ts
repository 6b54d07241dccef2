import { execFileSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, posix } from "node:path";
import { PROBE_TIMEOUT_MS } from "../bwrap/detect.js";

/** What `runsc` offers here, read once per process from `runsc --version` and `runsc flags`. */
export interface RunscBuild {
  /**
   * Absolute path of the runsc found on PATH (or in the system directories): sandboxes spawn it with a
   * minimal environment whose PATH would miss e.g. /usr/local/bin, where gVisor's own releases go.
   */
  binary: string;
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
    const binary = findOnPath("runsc");
    if (!binary) return { error: "runsc is not installed — apt-get install runsc (gVisor)" };
    try {
      const opts = { encoding: "utf8" as const, timeout: PROBE_TIMEOUT_MS, stdio: "pipe" as const };
      const version = execFileSync(binary, ["--version"], opts).split("\n")[0]?.trim() || "runsc";
      // `runsc flags` prints to stderr on some builds, stdout on others.
      const flags = execFileSync("sh", ["-c", '"$0" flags 2>&1', binary], opts);
      const line = /-platform string\s*\n\s*(.*)/.exec(flags)?.[1] ?? "";
      const platforms = ["systrap", "ptrace", "kvm"].filter((p) => line.includes(p));
      const platform = platforms.includes("systrap") ? "systrap" : "ptrace";
      return { binary, version, platforms, platform };
    } catch (err) {
      return { error: `${binary} --version failed: ${(err as Error).message.split("\n")[0]}` };
    }
  })();
  return build;
}

function findOnPath(name: string): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? "").split(delimiter),
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
  ];
  for (const dir of dirs) {
    if (!dir.startsWith("/")) continue; // a relative PATH entry would change meaning with the cwd
    const candidate = posix.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}
