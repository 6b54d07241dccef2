import { spawn } from "node:child_process";
import { MAX_RG_OUTPUT_BYTES, MAX_RG_RECORD_BYTES, MAX_RG_STDERR_CHARS } from "./limits.js";

/**
 * Flags every search passes. `--no-config` so a user's RIPGREP_CONFIG_PATH cannot change results;
 * `--hidden` with `!.git` so dotfiles are searched but git's internals never are (at any depth, which
 * also covers submodules and worktree `.git` files); `--no-require-git` so `.gitignore` applies before
 * the workspace has a `.git`; `--no-ignore-global` so the host user's global excludes do not make
 * results differ between machines. Symlinks are not followed because we never pass `-L`.
 */
export const RG_BASE_ARGS: readonly string[] = [
  "--no-config",
  "--hidden",
  "--glob",
  "!.git",
  "--no-require-git",
  "--no-ignore-global",
  "--color",
  "never",
];

/**
 * How rg's output is cut into records: with `--null`, `--files` prints `path\0` and `--count` /
 * `--line-number` print `path\0rest\n`; `--stats` prints plain lines.
 */
export type RecordShape = "path" | "path+rest" | "lines";

export interface RgRequest {
  rgPath: string;
  /** The workspace root; rg prints paths relative to it. */
  cwd: string;
  args: readonly string[];
  shape: RecordShape;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Called for each record; return false to stop rg (the caller has seen enough). */
  onRecord(path: string, rest: string): boolean;
}

export type RgOutcome =
  /** rg exited: 0 = matches, 1 = none, 2 = an error (possibly after some matches). */
  | { kind: "exited"; code: number; stderr: string; notes: string[] }
  | { kind: "stopped"; notes: string[] }
  | { kind: "output_cap"; notes: string[] }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "missing" }
  | { kind: "failed"; message: string };

/** rg prints relative paths as `./x` because we always pass `./…`; the tools show them without it. */
function cleanPath(raw: string): string {
  const path = raw.startsWith("./") ? raw.slice(2) : raw;
  // rg uses the platform separator; observations always use `/`.
  return process.platform === "win32" ? path.replaceAll("\\", "/") : path;
}

/**
 * Run rg once, reading stdout as a stream of records. Memory stays bounded whatever rg prints: only the
 * current partial record is buffered (at most MAX_RG_RECORD_BYTES), and the caller decides what to keep.
 */
export function runRg(request: RgRequest): Promise<RgOutcome> {
  return new Promise((resolve) => {
    const child = spawn(request.rgPath, [...request.args], {
      cwd: request.cwd,
      // stdin closed: with no readable stdin rg never waits for input. PATH only: rg needs nothing else,
      // and a clean environment keeps RIPGREP_CONFIG_PATH and friends out.
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin" },
    });
    let settled = false;
    let pending: Buffer = Buffer.alloc(0);
    let streamed = 0;
    let stderr = "";
    // Lines rg prints without a NUL, such as "binary file matches"; worth passing on to the model.
    const notes: string[] = [];

    const finish = (outcome: RgOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: "timeout" }), request.timeoutMs);
    const onAbort = (): void => finish({ kind: "aborted" });
    if (request.signal?.aborted) {
      onAbort();
      return;
    }
    request.signal?.addEventListener("abort", onAbort, { once: true });

    const note = (text: string): void => {
      if (notes.length < 3 && text.trim() !== "") notes.push(cleanPath(text.trim()));
    };

    child.stdout.on("data", (chunk: Buffer) => {
      if (settled) return;
      streamed += chunk.length;
      if (streamed > MAX_RG_OUTPUT_BYTES) return finish({ kind: "output_cap", notes });
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let start = 0;
      for (;;) {
        const cut = pending.indexOf(request.shape === "lines" ? 10 : 0, start);
        if (cut === -1) break;
        let end = cut + 1;
        let rest = "";
        if (request.shape === "path+rest") {
          const newline = pending.indexOf(10, cut + 1);
          if (newline === -1) break;
          rest = pending.toString("utf8", cut + 1, newline);
          end = newline + 1;
        }
        let path = pending.toString("utf8", start, cut);
        start = end;
        // A NUL-less message line runs into the next record's path; split it off. (A file name that
        // itself contains a newline is mangled by this; such names are not worth a fragile parser.)
        const lastNewline = request.shape === "path+rest" ? path.lastIndexOf("\n") : -1;
        if (lastNewline !== -1) {
          note(path.slice(0, lastNewline));
          path = path.slice(lastNewline + 1);
        }
        if (!request.onRecord(cleanPath(path), rest.endsWith("\r") ? rest.slice(0, -1) : rest)) {
          return finish({ kind: "stopped", notes });
        }
      }
      pending = pending.subarray(start);
      if (pending.length > MAX_RG_RECORD_BYTES) finish({ kind: "output_cap", notes });
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_RG_STDERR_CHARS) stderr += chunk.toString("utf8");
    });
    child.on("error", (err: NodeJS.ErrnoException) => {
      finish(err.code === "ENOENT" ? { kind: "missing" } : { kind: "failed", message: err.message });
    });
    child.on("close", (code, signal) => {
      if (settled) return;
      if (pending.length > 0) note(pending.toString("utf8"));
      if (code === null) {
        finish({ kind: "failed", message: `rg was killed by ${signal ?? "a signal"}` });
        return;
      }
      finish({ kind: "exited", code, stderr: stderr.slice(0, MAX_RG_STDERR_CHARS).trim(), notes });
    });
  });
}
