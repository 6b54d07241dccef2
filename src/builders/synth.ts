import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { BackendChoice } from "../sandbox/index.js";
import { seededRandom } from "../stats/index.js";
import type { Instance } from "../swebench/index.js";
import { dropAgentFiles, failingTests, splitTests, unusableRun, writeInstances } from "./assemble.js";
import { detectRepo, type TestCommandOverride, type TestSetup } from "./detect.js";
import { problemStatement } from "./issue.js";
import type { BuildReport, CandidateOutcome } from "./mirror.js";
import { applyMutation, type Mutation, mutationSites } from "./mutate.js";
import { isSourcePath, languageOf, testPaths } from "./paths.js";
import { WorkRepo } from "./workdir.js";

export const DEFAULT_SYNTH_MAX = 10;
/** Mutants tried per one wanted: most mutants break nothing a test sees, or break the same tests. */
const TRIES_PER_KEPT = 8;
/** A mutant's test run may take this many times the clean run (+ a floor) before it counts as a hang. */
const HANG_FACTOR = 5;
const HANG_FLOOR_MS = 15_000;

export interface SynthOptions {
  repo: string;
  out: string;
  max?: number;
  seed?: number;
  testCommand?: TestCommandOverride;
  /** Globs naming the repository's test modules, instead of the conventions. */
  testFiles?: readonly string[];
  backend?: BackendChoice;
  onCandidate?: (c: CandidateOutcome) => void;
}

/** The seeded PRNG `--seed` picks mutants with, the same on every machine (src/stats). */
export { seededRandom };

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/**
 * Synthesized bugs (SWE-smith's procedural modifications): mutate functions through tree-sitter and
 * keep the mutants that make some passing test fail. Deterministic for a given `seed`.
 */
export async function synth(options: SynthOptions): Promise<BuildReport> {
  const paths = testPaths(options.testFiles);
  const setup = await detectRepo(options.repo, options.testCommand, "HEAD", paths);
  const work = await WorkRepo.create(options.repo, setup.language, options.backend);
  const warnings = work.warning ? [work.warning] : [];
  const max = options.max ?? DEFAULT_SYNTH_MAX;
  const repoName = basename(options.repo.replace(/\/+$/, "")).replace(/\.git$/, "");
  try {
    const clean = await work.runTests(setup, setup.testFiles);
    const bad = unusableRun(clean);
    if (bad) throw new Error(`tasks synth: the tests of ${options.repo} do not run at HEAD: ${bad}`);
    const family = setup.language === "python" ? ["python"] : ["typescript", "javascript"];
    const sources = (await work.files()).filter(
      (f) => isSourcePath(f, paths) && family.includes(languageOf(f) ?? ""),
    );
    const sites: Mutation[] = [];
    for (const file of sources.sort()) {
      const lang = languageOf(file);
      if (lang) sites.push(...(await mutationSites(lang, file, readFileSync(join(work.dir, file), "utf8"))));
    }
    shuffle(sites, seededRandom(options.seed ?? 0));
    const timeoutMs = Math.max(HANG_FLOOR_MS, clean.durationMs * HANG_FACTOR);
    const instances: Instance[] = [];
    const candidates: CandidateOutcome[] = [];
    const usedLines = new Set<string>();
    let tried = 0;
    for (const m of sites) {
      if (instances.length >= max || tried >= max * TRIES_PER_KEPT) break;
      // One bug per line: two mutants of one line are one task told twice.
      const where = `${m.file}:${m.line}`;
      if (usedLines.has(where)) continue;
      tried++;
      const outcome = await tryMutant(work, setup, m, clean, timeoutMs);
      const label = `${m.kind} at ${where}: ${JSON.stringify(m.before)} → ${JSON.stringify(m.after)}`;
      const note = (c: CandidateOutcome) => {
        candidates.push(c);
        options.onCandidate?.(c);
      };
      if ("reason" in outcome) {
        note({ sha: "-", subject: label, kept: false, reason: outcome.reason });
        continue;
      }
      usedLines.add(where);
      const hash = createHash("sha256").update(`${where}:${m.start}:${m.after}`).digest("hex").slice(0, 8);
      const id = `${repoName}-synth-${hash}`;
      const failing = await failingTests(work, setup, setup.testFiles, outcome.f2p);
      writeFileSync(join(work.dir, m.file), outcome.mutated);
      await dropAgentFiles(work);
      const base = await work.commitTree(id, `${repoName}: synthesized bug`);
      await work.reset();
      const patch = await work.diff(base, work.head, [m.file]);
      instances.push({
        instance_id: id,
        repo: `local/${repoName}`,
        base_commit: base,
        patch,
        test_patch: "",
        problem_statement: problemStatement({
          logParser: setup.logParser,
          language: setup.language,
          failing,
          log: outcome.log,
          patch,
        }),
        hints_text: "",
        created_at: (await work.git(["show", "-s", "--format=%cI", "HEAD"])).trim(),
        version: work.head.slice(0, 12),
        environment_setup_commit: base,
        FAIL_TO_PASS: outcome.f2p,
        PASS_TO_PASS: outcome.p2p,
        test_command: [...setup.command, ...setup.testFiles],
        log_parser: setup.logParser,
        language: setup.language,
        repo_path: "",
      });
      note({
        sha: "-",
        subject: label,
        kept: true,
        reason: `${outcome.f2p.length} FAIL_TO_PASS, ${outcome.p2p.length} PASS_TO_PASS`,
        instanceId: id,
      });
    }
    await work.reset();
    const written = await writeInstances(options.out, work, instances);
    return {
      instances,
      candidates,
      scanned: sites.length,
      notFixes: 0,
      setup,
      bundle: instances.length > 0 ? written : undefined,
      warnings,
    };
  } finally {
    await work.dispose();
  }
}

type MutantOutcome = { reason: string } | { f2p: string[]; p2p: string[]; log: string; mutated: string };

async function tryMutant(
  work: WorkRepo,
  setup: TestSetup,
  m: Mutation,
  clean: Awaited<ReturnType<WorkRepo["runTests"]>>,
  timeoutMs: number,
): Promise<MutantOutcome> {
  const path = join(work.dir, m.file);
  const original = readFileSync(path, "utf8");
  const mutated = applyMutation(original, m);
  writeFileSync(path, mutated);
  try {
    const run = await work.runTests(setup, setup.testFiles, timeoutMs);
    if (run.timedOut) return { reason: "the tests hang with this mutant" };
    const { f2p, p2p } = splitTests(clean, run);
    if (f2p.length === 0) return { reason: "no test fails with this mutant" };
    return { f2p, p2p, log: run.log, mutated };
  } finally {
    writeFileSync(path, original);
  }
}
