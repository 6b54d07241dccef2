/**
 * How an environment build fails: a line that failed, with the part of its output that says why, or
 * an environment this machine cannot have.
 */
import type { MissingRequirement } from "./pins.js";

/** Lines of a failed build's output that never say why: npm's pointer to its log, its error fields. */
const BOILERPLATE =
  /A complete log of this run|^npm (error|ERR!) (code|command|path|cwd|errno|syscall)\b|^npm (error|ERR!)\s*$/;
/** Lines that do: git's `fatal:`, pip's `No matching distribution`, a host or file not found. */
const STRONG_REASON = /\b(fatal|No matching|not found|denied|could not|unable|cannot)\b/i;

/** A build that failed: which line, its output's end, and the log with all of it. */
export class EnvBuildError extends Error {
  constructor(
    message: string,
    readonly log: string,
    /** The requirement pip could not find, when that is why. */
    readonly missing?: MissingRequirement,
  ) {
    super(message);
    this.name = "EnvBuildError";
  }

  /**
   * One line for a progress display: the line that failed, the line of its output that says why
   * (npm's `npm error …`, git's `fatal: …`, pip's `ERROR: …`), and where the whole log is.
   */
  get summary(): string {
    const [head = "", ...rest] = this.message.split("\n");
    const output = rest.filter(
      (l) => !l.startsWith("The whole log:") && !l.startsWith("(remembered") && l.trim() !== "",
    );
    // npm ends every failure with where its own log is, and names the command before the reason.
    const said = output.filter((l) => !BOILERPLATE.test(l));
    const why =
      said.findLast((l) => STRONG_REASON.test(l)) ??
      said.findLast((l) => /\b(error|ERR!)\b/i.test(l)) ??
      said.at(-1);
    return `${head}${why ? ` — ${why.trim().slice(0, 200)}` : ""} (log: ${this.log})`;
  }
}

/**
 * The environment cannot be had on this machine, for a named cause: its interpreter is not
 * installed, or a requirement (a pin) is not in the package indexes. Not a fault of the harness.
 */
export class EnvironmentUnavailable extends Error {
  override name = "EnvironmentUnavailable";
}

/**
 * The part of a failed line's output that says why: its last 25 lines — but npm ends a usage error
 * with its whole help text, so for npm the excerpt runs from `npm error code` to where the help begins.
 */
export function failureExcerpt(output: string): string {
  const lines = output.trimEnd().split("\n");
  const code = lines.findIndex((l) => /^npm (error|ERR!) code /.test(l));
  const usage = lines.findIndex((l, i) => i > code && /^npm (error|ERR!) Usage:\s*$/.test(l));
  if (code >= 0 && usage > code) {
    // The help's one-line description stands before "Usage:", between bare "npm error" lines.
    const bare = (i: number) => /^npm (error|ERR!)\s*$/.test(lines[i] ?? "");
    let end = usage;
    while (end > code + 1 && bare(end - 1)) end--;
    while (end > code + 1 && !bare(end - 1)) end--;
    return lines.slice(code, end).join("\n").trimEnd();
  }
  return lines.slice(-25).join("\n");
}
