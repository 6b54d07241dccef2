import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { z } from "zod";
import type { Instance } from "../swebench/index.js";
import { bundlePathFor } from "./assemble.js";
import type { WorkRepo } from "./workdir.js";

/**
 * Where a mirror's results go, as they are found: each kept instance is a JSONL line and a tag in the
 * bundle the moment it is decided, and every decided candidate — kept or skipped, with its reason —
 * a line of the candidates log beside them (`<out>.candidates.jsonl`). A mirror stopped by Ctrl-C, a
 * timeout or a kill loses at most the candidate it was deciding; `--resume` reads the log, takes what
 * was decided as it was, and goes on from the next candidate.
 */

/** The options that decide which candidates there are and what becomes of them: a resume must match. */
export type MirrorSettings = Record<string, string | number | boolean | string[] | null>;

const Header = z.object({
  acilab_mirror: z.literal(1),
  repo: z.string(),
  head: z.string(),
  settings: z.record(z.string(), z.unknown()),
});

const Outcome = z.object({
  sha: z.string(),
  subject: z.string(),
  kept: z.boolean(),
  reason: z.string(),
  instanceId: z.string().optional(),
});
export type RecordedOutcome = z.infer<typeof Outcome>;

/** `mirror.jsonl` → `mirror.candidates.jsonl`. */
export function candidatesLogFor(outFile: string): string {
  const file = resolve(outFile);
  return join(dirname(file), `${basename(file).replace(/\.jsonl?$/, "")}.candidates.jsonl`);
}

/** Lines of a JSONL file that parse; a last line cut short by a kill is left out. */
function jsonLines(file: string): unknown[] {
  if (!existsSync(file)) return [];
  const out: unknown[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a line half-written when the process was killed: that candidate is decided again
    }
  }
  return out;
}

export class MirrorOutput {
  /** Candidates decided by an earlier run of the same mirror (empty unless resumed), by commit. */
  readonly decided = new Map<string, RecordedOutcome>();
  readonly instances: Instance[] = [];
  private readonly tags = new Set<string>();

  private constructor(
    readonly file: string,
    readonly bundle: string,
    readonly log: string,
    private readonly work: WorkRepo,
  ) {}

  /**
   * Open the output for a mirror of `repo` at `head` with these settings: fresh (the files of an
   * earlier run replaced, `warn` says so when it had instances) or resumed (its log must be of the same
   * repository, HEAD and settings; what it kept is fetched into the work repository).
   */
  static async open(
    outFile: string,
    work: WorkRepo,
    run: { repo: string; head: string; settings: MirrorSettings; resume: boolean },
    warn: (line: string) => void,
  ): Promise<MirrorOutput> {
    const file = resolve(outFile);
    mkdirSync(dirname(file), { recursive: true });
    const out = new MirrorOutput(file, bundlePathFor(file), candidatesLogFor(file), work);
    if (run.resume) await out.resume(run);
    else {
      const earlier = jsonLines(file).length;
      if (earlier > 0)
        warn(
          `${file} held ${earlier} instance(s) of an earlier run: replaced (--resume continues a stopped mirror instead)`,
        );
      writeFileSync(file, "");
      rmSync(out.bundle, { force: true });
      writeFileSync(
        out.log,
        `${JSON.stringify({ acilab_mirror: 1, repo: run.repo, head: run.head, settings: run.settings })}\n`,
      );
    }
    return out;
  }

  private async resume(run: { repo: string; head: string; settings: MirrorSettings }): Promise<void> {
    const lines = jsonLines(this.log);
    const header = Header.safeParse(lines[0]);
    if (!header.success)
      throw new Error(
        `--resume: ${this.log} is ${existsSync(this.log) ? "not a candidates log of tasks mirror" : "not there"} — nothing to resume; run without --resume to start`,
      );
    if (header.data.head !== run.head)
      throw new Error(
        `--resume: the stopped mirror was of ${header.data.repo} at ${header.data.head.slice(0, 10)}, and HEAD is now ${run.head.slice(0, 10)}: its candidates are not these — run without --resume to start again`,
      );
    const differs = Object.keys({ ...header.data.settings, ...run.settings }).filter(
      (k) => JSON.stringify(header.data.settings[k] ?? null) !== JSON.stringify(run.settings[k] ?? null),
    );
    if (differs.length > 0)
      throw new Error(
        `--resume: the stopped mirror ran with other settings (${differs.map((k) => `${k}: ${JSON.stringify(header.data.settings[k] ?? null)} then, ${JSON.stringify(run.settings[k] ?? null)} now`).join("; ")}) — give the same options, or run without --resume`,
      );
    for (const line of lines.slice(1)) {
      const o = Outcome.safeParse(line);
      if (o.success) this.decided.set(o.data.sha, o.data);
    }
    // An instance is kept only with its candidate's line: one written just before a kill is decided again.
    const keptIds = new Set(
      [...this.decided.values()].flatMap((o) => (o.kept && o.instanceId ? [o.instanceId] : [])),
    );
    const instances = jsonLines(this.file) as Instance[];
    this.instances.push(...instances.filter((i) => keptIds.has(i.instance_id)));
    if (this.instances.length !== instances.length) this.rewriteInstances();
    for (const id of keptIds)
      if (!this.instances.some((i) => i.instance_id === id)) {
        // Its line is gone from the JSONL (edited by hand?): decide that candidate again.
        for (const [sha, o] of this.decided) if (o.instanceId === id) this.decided.delete(sha);
      }
    if (this.instances.length === 0) return;
    if (!existsSync(this.bundle))
      throw new Error(
        `--resume: ${this.bundle} is missing, and ${this.file}'s instances live there — run without --resume`,
      );
    await this.work.git(["fetch", "-q", this.bundle, "+refs/tags/acilab/*:refs/tags/acilab/*"]);
    const heads = await this.work.git(["bundle", "list-heads", this.bundle]);
    for (const m of heads.matchAll(/refs\/tags\/acilab\/(\S+)/g)) this.tags.add(m[1] as string);
  }

  private rewriteInstances(): void {
    const text = this.instances.map((i) => `${JSON.stringify(i)}\n`).join("");
    writeFileSync(`${this.file}.tmp`, text);
    renameSync(`${this.file}.tmp`, this.file);
  }

  /**
   * Keep one instance now: its tag (and its environment's) in the bundle, rewritten whole and renamed
   * into place, then its JSONL line. `repo_path` is set to the bundle, relative to the file.
   */
  async keep(instance: Instance, environmentTag: string | undefined): Promise<void> {
    instance.repo_path = relative(dirname(this.file), this.bundle);
    this.tags.add(instance.instance_id);
    if (environmentTag) this.tags.add(environmentTag);
    const tmp = `${this.bundle}.tmp`;
    rmSync(tmp, { force: true });
    await this.work.bundle(tmp, [...this.tags]);
    renameSync(tmp, this.bundle);
    appendFileSync(this.file, `${JSON.stringify(instance)}\n`);
    this.instances.push(instance);
  }

  /** One decided candidate into the log (after its instance, if kept, is written). */
  record(outcome: RecordedOutcome): void {
    appendFileSync(this.log, `${JSON.stringify(outcome)}\n`);
  }
}
