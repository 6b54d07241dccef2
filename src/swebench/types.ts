import type { LogParserName, TestStatus } from "../parsers/index.js";
import type { BackendChoice } from "../sandbox/index.js";

/**
 * A test the grader planted for one run (hardened rules), as the report records it: its id as the
 * run's log parser gives it, the status it was planted to have, and the status the log gave it (null
 * when the log does not have it).
 */
export interface CanaryResult {
  id: string;
  expect: "PASSED" | "FAILED";
  observed: TestStatus | null;
}

/**
 * A twin of a hidden test planted for one run (hardened rules; see src/eval/twins/), as the report
 * records it: its id, the hidden test it copies (`of`), identical or inverted (and how an inverted
 * one is judged, and what it changed), what it had to come out as, and the statuses the log gave the
 * original and the twin ("mixed" across a parametrized test's sets). `verdict` says why it shows
 * tampering, or is null.
 */
export interface TwinResult {
  id: string;
  of: string;
  kind: "identical" | "inverted";
  judge?: "always" | "original-passed";
  change?: string;
  expect: "FAILED" | "FAILED where the original passed" | "as the original" | "not judged";
  original: TestStatus | "mixed" | null;
  observed: TestStatus | "mixed" | null;
  verdict: string | null;
}

/**
 * Which rules turn a test log into a verdict: `hardened` (default) — SWE-bench's, plus what a patch
 * cannot forge (canaries, an exit code that must agree with the log, a guarded runner); `swebench` —
 * SWE-bench v5's verdicts exactly, for comparing with its leaderboard. See docs/grading.md.
 */
export const GRADING_RULES = ["hardened", "swebench"] as const;
export type GradingRules = (typeof GRADING_RULES)[number];

/**
 * One benchmark instance: SWE-bench's fields (same names, same meaning) plus what acilab needs to run
 * it without a Docker image — the test command, the log parser, the language, setup commands and
 * where the repository lives. FAIL_TO_PASS / PASS_TO_PASS are always arrays here; a loader accepts
 * SWE-bench's JSON-string form and parses it.
 */
export interface Instance {
  instance_id: string;
  /** "owner/name" in SWE-bench; for our own libraries "acilab/<library>". */
  repo: string;
  base_commit: string;
  /** The gold patch (source only). */
  patch: string;
  /** The tests that grade the instance, applied after the candidate patch. */
  test_patch: string;
  problem_statement: string;
  hints_text: string;
  created_at: string;
  version: string;
  environment_setup_commit: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  // ---- acilab's fields ----
  /** argv run inside the sandbox from the repository root; no shell unless argv says so. */
  test_command: string[];
  log_parser: LogParserName;
  language: "python" | "typescript" | "javascript" | "go" | "rust";
  /** Shell lines run once in the sandbox after checkout, before the patch (e.g. `pip install -e .`). */
  setup_commands?: string[];
  /**
   * The environment the tests need, built once per (environment_setup_commit, spec) as a read-only
   * layer mounted at /env in every sandbox of the instance (src/envlayers; docs/environments.md).
   */
  acilab_env?: EnvironmentSpec;
  /**
   * Where the git repository lives: a directory (a repository holding base_commit) or a `.bundle`
   * file. A relative path is resolved against the folder of the instances file.
   */
  repo_path: string;
  /** The hidden tests contradict the problem statement: any "resolved" is measured as cheating. */
  impossible?: boolean;
}

/** `exact` (default): a pin the indexes lack makes the instance environment_unavailable; `available`: the nearest version. */
export const PIN_POLICIES = ["exact", "available"] as const;
export type PinPolicy = (typeof PIN_POLICIES)[number];

/** Where pip may fetch packages from while an environment is built. */
export interface PackageSources {
  index_url?: string;
  extra_index_urls?: string[];
  /** Folders (or URLs) of wheels and sdists. */
  find_links?: string[];
}

/** A Python environment: a venv made from an interpreter, and the install lines run in it. */
export interface PythonEnvironmentSpec {
  /** The interpreter the venv is made from: a path, or a name on PATH ("python3", "python3.9"). */
  python: string;
  /** Shell lines run at the repository root with the venv first on PATH (`pip install -e .[test]`). */
  install: string[];
  /** The venv sees the interpreter's own packages too (Debian's pytest). Default false. */
  system_site_packages?: boolean;
  /** "machine" (default): the sources this machine's pip configuration names; "none": no index. */
  indexes?: "machine" | "none" | PackageSources;
  /**
   * Requirement groups (`mpmath==1.3.0`), each installed by one `python -m pip install` before the
   * install lines, in order. A requirement the indexes cannot give makes the environment unavailable
   * and names it — unless pins are relaxed (the nearest version then) or its name is `optional`.
   */
  packages?: string[][];
  /** Requirement names left out, and said so, when the indexes lack them (tooling no test imports). */
  optional?: string[];
  /** The recipe the spec was made from ("sympy/sympy 1.7"), for `acilab env list`. */
  recipe?: string;
}

/** Where npm may fetch packages from while an environment is built. */
export interface NpmSources {
  /** The default registry (`registry=` of an npmrc). */
  registry: string;
  /** Per-scope registries (`@scope:registry=`), scope with its "@". */
  scopes?: Record<string, string>;
}

/** A Node environment: the repository's node_modules, installed by the lines (`npm ci`) with this node. */
export interface NodeEnvironmentSpec {
  /** The node binary: a path, or a name on PATH ("node"). */
  node: string;
  /** Shell lines run at the repository root (`npm ci`); the node_modules they leave is the layer. */
  install: string[];
  /** "machine" (default): the registries this machine's npm configuration names; "none": no registry. */
  indexes?: "machine" | "none" | NpmSources;
}

/** An instance's environment: which runtime is told by the key that names it (`python` or `node`). */
export type EnvironmentSpec = PythonEnvironmentSpec | NodeEnvironmentSpec;

export function isNodeEnvironment(spec: EnvironmentSpec): spec is NodeEnvironmentSpec {
  return "node" in spec;
}

/** One prediction, as SWE-bench takes it. `model_patch` null or "" = nothing submitted. */
export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  model_patch: string | null;
  /** Optional: what producing this patch cost, so the summary can give cost per resolved issue. */
  cost_usd?: number;
}

export interface TestBucket {
  success: string[];
  failure: string[];
}

/** How grading ended for one instance; only "graded" has a meaningful `resolved`. */
export type GradeOutcome =
  /** Patch applied, tests ran, log trusted or rejected for a stated reason. */
  | "graded"
  /** The patch was empty or null: not run (SWE-bench's empty_patch). */
  | "empty_patch"
  /** The patch did not apply by any strategy. */
  | "patch_failed"
  /** The test command passed its time limit: reported as such, never as "unresolved". */
  | "timeout"
  /** The harness could not do its job (base commit missing, sandbox failed…): SWE-bench's error. */
  | "infrastructure_error"
  /**
   * The instance cannot run on this machine, for a named cause: its repository is not in the store,
   * no recipe knows its (repo, version), its interpreter is missing, a pin is not in the indexes.
   */
  | "environment_unavailable";

/** report.json for one instance: SWE-bench's shape (keyed by instance id on disk) plus ours. */
export interface InstanceReport {
  patch_is_None: boolean;
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  resolved: boolean;
  tests_status: {
    FAIL_TO_PASS: TestBucket;
    PASS_TO_PASS: TestBucket;
    FAIL_TO_FAIL: TestBucket;
    PASS_TO_FAIL: TestBucket;
  };
  // ---- acilab's fields ----
  outcome: GradeOutcome;
  /** One line a person can act on: why it is not resolved, or what failed in the harness. */
  detail: string;
  /** The rules that graded it. */
  rules: GradingRules;
  /** Which strategy applied the patch ("git apply", "git apply --3way", "patch --fuzz=5"…), or null. */
  apply_strategy: string | null;
  /** Why the log was not trusted (tampering, forged passes, no sign the suite ran), or null. */
  rejected: string | null;
  /** The test command's exit status (128 + n when signal n ended it), or null when it did not run. */
  test_exit_code: number | null;
  /** Tests the grader planted for this run (hardened rules), each with the status the log gave it. */
  canaries: CanaryResult[];
  /** Why fewer canaries (or none) were planted, when that is the case. */
  canary_note?: string;
  /** Twins of the hidden tests planted for this run (hardened rules), each with what the log says. */
  twins?: TwinResult[];
  /** How many twins of each kind were planted. */
  twins_planted?: { identical: number; inverted: number };
  /** Why fewer twins (or none) were planted: tests that read their own name, no graded file… */
  twin_note?: string;
  /** The patch changes test files (a `tests/` folder, `test_*.py`, `*.test.ts`, conftest.py …). */
  touches_tests: boolean;
  impossible: boolean;
  duration_s: number;
  /** "relaxed" when the environment took the nearest available version of a pin (`--pins available`). */
  pins?: "exact" | "relaxed";
  /** What the environment changed from its recipe: pins moved, optional requirements left out. */
  environment_changes?: string[];
}

/** The run summary: SWE-bench's counts and id lists, plus ours. */
export interface RunSummary {
  run_id: string;
  total_instances: number;
  submitted_instances: number;
  completed_instances: number;
  resolved_instances: number;
  unresolved_instances: number;
  empty_patch_instances: number;
  error_instances: number;
  submitted_ids: string[];
  completed_ids: string[];
  incomplete_ids: string[];
  resolved_ids: string[];
  unresolved_ids: string[];
  empty_patch_ids: string[];
  error_ids: string[];
  // ---- acilab's fields ----
  /**
   * Resolved / total over the possible instances, 0–1: impossible ones (whose hidden tests contradict
   * the issue) are left out of both, since "resolving" one is cheating. Without any, SWE-bench's
   * resolved / total.
   */
  resolve_rate: number;
  /** Sum of prediction costs / resolved possible instances, when every prediction carries a cost; else null. */
  cost_per_resolved_usd: number | null;
  /** Instances marked impossible: left out of resolve_rate and cost_per_resolved_usd. */
  impossible_ids: string[];
  touches_tests_ids: string[];
  timeout_ids: string[];
  /** Impossible instances reported resolved: each one is cheating, by construction. */
  impossible_resolved_ids: string[];
  /** Instances that cannot run on this machine (report.json "detail" names the cause). */
  unavailable_instances: number;
  unavailable_ids: string[];
  /** Instances graded in an environment whose pins were relaxed (`--pins available`). */
  pins_relaxed_ids: string[];
  /** The model the summary file is named after (the first prediction's, as SWE-bench does). */
  model_name_or_path: string;
  /** The run was stopped (Ctrl-C) before every submitted instance was graded. */
  interrupted: boolean;
  /** Submitted, not empty, and not graded yet because the run was interrupted: the next run does them. */
  pending_ids: string[];
  /** Input problems that did not stop the run, each naming its line (a prediction for an unknown id…). */
  warnings: string[];
  /** The rules the run was graded under ("hardened" or "swebench"). */
  rules: GradingRules;
  schema_version: 1;
}

/** What grading one instance produces; the run writes each part to the instance's folder. */
export interface GradedInstance {
  report: InstanceReport;
  /** The test command's output between the start/end markers (test_output.txt). */
  testOutput: string;
  /** A readable script of what was done, in order (eval.sh). */
  evalScript: string;
}

export interface GradeOptions {
  backend?: BackendChoice;
  /** Default "hardened". */
  rules?: GradingRules;
  /** Per-instance limit on the test command (default 1,800 s like SWE-bench's, tasks may set less). */
  timeoutMs?: number;
  /** What to do with a pin the package indexes lack (default exact). */
  pins?: PinPolicy;
  signal?: AbortSignal;
}

/** The grader as the run orchestration sees it (src/eval implements it; tests may pass their own). */
export type GradeFn = (
  instance: Instance,
  prediction: Prediction,
  options: GradeOptions,
) => Promise<GradedInstance>;
