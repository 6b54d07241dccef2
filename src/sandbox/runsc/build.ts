import { execFileSync } from "node:child_process";
import { PROBE_TIMEOUT_MS } from "../bwrap/detect.js";
import { executableIn, pathDirs } from "../executables.js";

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

/** Where runsc is looked for after PATH. */
const SYSTEM_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin"];

let build: RunscBuild | { error: string } | undefined;

/** runsc's version and platforms, or why it cannot be asked (not installed, broken). */
export function runscBuild(): RunscBuild | { error: string } {
  build ??= (() => {
    // PATH's absolute folders (a relative one would change meaning with the cwd), then the system's.
    const dirs = [...pathDirs().filter((d) => d.startsWith("/")), ...SYSTEM_DIRS];
    const binary = executableIn("runsc", dirs);
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
