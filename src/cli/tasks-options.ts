/**
 * The options and help of `acilab tasks` and its subcommands: list, export, validate (in
 * tasks-commands.ts) and mirror, synth (in tasks-build.ts).
 */
import { DEFAULT_MAX_COMMITS, DEFAULT_MAX_SRC_LINES, DEFAULT_SYNTH_MAX } from "../builders/index.js";
import { LOG_PARSER_NAMES } from "../parsers/index.js";
import { optionLines } from "./options.js";
import { FILTER, PINS, REPOS, SANDBOX, workersOption } from "./shared-options.js";

const LIST_WHAT = "one line per task: id, library, language, kind of bug, title (impossible tasks say so)";

export const TASKS_HELP = `acilab tasks — the built-in tasks, and building new ones from a repository

Usage: acilab tasks list [--json] [--toolsets] [--cua-dir DIR]
       acilab tasks export [--suite builtin] --out FILE
       acilab tasks validate [FILE.jsonl | TASK…] [--runs N] [--sandbox BACKEND]
       acilab tasks mirror|synth --repo PATH [--out FILE] …
       acilab tasks miniwob DIR [--out DIR] [--seed S]

  list       ${LIST_WHAT}
  export     write the built-in suite as SWE-bench instances (JSONL), repositories as git bundles
  validate   check tasks are fair: gold resolves, the base fails, gold runs agree (and, for
             published SWE-bench rows, whether each can run here)
  mirror     build instances from a repository's fix commits
  synth      build instances from mutants of a repository's functions
  miniwob    write computer-use task files for a MiniWoB++ checkout, one per page

Run "acilab tasks <subcommand> --help" for its options.`;

export const TASKS_LIST_OPTIONS = {
  json: {
    type: "boolean",
    help: 'machine-readable list (kind "coding" or "cua", impossible, FAIL_TO_PASS, PASS_TO_PASS …)',
  },
  toolsets: { type: "boolean", help: "list the tool sets instead" },
  "cua-dir": {
    type: "string",
    value: "DIR",
    help: "a folder of computer-use task files (task.yaml) to list after the built-in tasks",
    defaultHelp: "the task files acilab ships, tasks/cua/",
  },
} as const;

export const TASKS_LIST_HELP = `acilab tasks list — the built-in tasks

Usage: acilab tasks list [--json] [--toolsets] [--cua-dir DIR]

Options:
${optionLines(TASKS_LIST_OPTIONS)}

Prints ${LIST_WHAT};
the computer-use tasks (kind cua) follow the coding ones: the built-in ones, then the task files of
--cua-dir (run one with "acilab cua --task PATH").`;

export const TASKS_EXPORT_OPTIONS = {
  suite: {
    type: "string",
    value: "NAME",
    help: "the suite to export; builtin is the one there is",
    default: "builtin",
  },
  out: { type: "string", value: "FILE", help: "the instances .jsonl to write (required)" },
} as const;

export const TASKS_EXPORT_HELP = `acilab tasks export — the built-in suite as SWE-bench instances

Usage: acilab tasks export [--suite builtin] --out FILE

Options:
${optionLines(TASKS_EXPORT_OPTIONS)}

Writes the built-in suite as SWE-bench instances (JSONL) with each library's repository as a git
bundle in FILE's folder/repos/, which \`acilab grade\` reads anywhere.`;

export const TASKS_VALIDATE_OPTIONS = {
  runs: { type: "string", value: "N", help: "gold runs that must agree test by test", default: "2" },
  sandbox: SANDBOX,
  repos: REPOS,
  filter: FILTER,
  pins: PINS,
  workers: workersOption("instances validated", 1),
  out: {
    type: "string",
    value: "DIR",
    help: "also keep every run's files as a grading run lays them out: DIR/validate/gold/<id>/ and DIR/validate/base/<id>/ (report.json, test_output.txt, patch.diff, eval.sh); run again with the same DIR, an interrupted validation grades only what it had not finished",
  },
} as const;

export const TASKS_VALIDATE_HELP = `acilab tasks validate — check that tasks are fair

Usage: acilab tasks validate [FILE.jsonl | TASK…] [--runs N] [--sandbox BACKEND]
                            [--repos DIR] [--filter GLOB] [--pins exact|available] [--workers N] [--out DIR]

Options:
${optionLines(TASKS_VALIDATE_OPTIONS)}

An instances file may hold SWE-bench's rows as published: each row is said to be ready, invalid (what
failed), or unavailable here and why (repository missing, no recipe, interpreter missing, a pin the
package indexes lack, a build that fails), and a table per repository ends the output.

Checks tasks are fair: the gold patch resolves (an impossible task's does not), the untouched base
fails every FAIL_TO_PASS test and passes every PASS_TO_PASS one, and --runs gold runs agree test by
test — else the task is flagged flaky. No argument: every built-in task. Exit 1 when any is invalid.`;

const REPO = {
  type: "string",
  value: "PATH",
  help: "the git repository with tests to build from (required)",
} as const;

/** The options mirror and synth share (besides --repo); only the default output file differs. */
function buildOptions(sub: "mirror" | "synth") {
  return {
    out: {
      type: "string",
      value: "FILE",
      help: "instances JSONL; the base commits go to a git bundle beside it (FILE's name with .bundle), which repo_path points at",
      default: `${sub}.jsonl`,
    },
    "test-command": {
      type: "string",
      value: "CMD",
      help: "a shell command the test files are appended to",
      defaultHelp: "pytest for Python, node --test with the tap reporter for package.json repositories",
    },
    "log-parser": {
      type: "string",
      value: "NAME",
      help: `how to read --test-command's output: ${LOG_PARSER_NAMES.join(", ")}`,
      defaultHelp: "pytest if the command says pytest, else node-tap",
    },
    "test-files": {
      type: "string",
      multiple: true,
      value: "GLOB",
      help: "which files are the repository's test modules (repeatable; `test.py`, `spec/**/*.js`): their tests are run and graded",
      defaultHelp: "the conventions: test_*.py, *_test.py, a root test.py, *.test.js, test/ …",
    },
    sandbox: SANDBOX,
  } as const;
}

export const TASKS_MIRROR_OPTIONS = {
  repo: REPO,
  "max-commits": {
    type: "string",
    value: "N",
    help: "how many commits back from HEAD to look for fixes",
    default: String(DEFAULT_MAX_COMMITS),
  },
  "max-src-lines": {
    type: "string",
    value: "N",
    help: "the most source lines a fix may change",
    default: String(DEFAULT_MAX_SRC_LINES),
  },
  "max-candidates": {
    type: "string",
    value: "N",
    help: "decide at most N fix candidates, newest first",
    defaultHelp: "all of them",
  },
  "test-timeout": {
    type: "string",
    value: "S",
    help: "seconds one test run may take (a hang past it is a timeout, and the fix is skipped)",
    default: "120",
  },
  base: {
    type: "string",
    value: "<auto|head|fix>",
    help: "where each fix is undone: on HEAD, at the fix itself (its parent's code, its tests), or auto — HEAD, else the fix",
    default: "auto",
  },
  kind: {
    type: "string",
    value: "<fix|feature|all>",
    help: 'which changes become tasks: bug fixes, features (a change that adds the API its tests use: the issue asks for it; skipped by default as "adds API: …"), or all',
    default: "fix",
  },
  resume: {
    type: "boolean",
    help: "go on with a mirror that was stopped (Ctrl-C, a kill): what it decided is kept as it was, from OUT's candidates log; the same options are needed",
  },
  env: {
    type: "string",
    value: "<auto|FILE>",
    help: 'the environment every test runs in, built once at HEAD and named in the instances: auto (detected from the repository\'s files, each decision printed) or a JSON spec file {"python": …, "install": […]} or {"node": …, "install": ["npm ci"]}',
    defaultHelp: "none: the sandbox's system Python",
  },
  python: {
    type: "string",
    value: "PY",
    help: "the interpreter --env auto makes the venv from (a path, or python3.9 from pyenv)",
    defaultHelp: "python3 on PATH",
  },
  node: {
    type: "string",
    value: "NODE",
    help: "the node --env auto installs a JavaScript/TypeScript repository's node_modules with (a path, or an nvm node)",
    defaultHelp: "node on PATH",
  },
  ...buildOptions("mirror"),
} as const;

const BUILD_NOTE = `Skipped candidates are listed with a one-line reason each. Test runs always go through the sandbox.`;

export const TASKS_MIRROR_HELP = `acilab tasks mirror — build SWE-bench instances from a git repository's fix commits

Usage: acilab tasks mirror --repo PATH [--max-commits N] [--max-src-lines N] [--max-candidates N]
                           [--test-timeout S] [--base auto|head|fix] [--kind fix|feature|all]
                           [--env auto|FILE] [--python PY | --node NODE] [--test-files GLOB]…
                           [--out FILE] [--resume]

Options:
${optionLines(TASKS_MIRROR_OPTIONS)}

Walks the last --max-commits commits of HEAD's first-parent line (a merged pull request counts as
one fix, merge^1..merge) for fixes that change tests and at most --max-src-lines source lines; undoes
each fix's source part on HEAD — or, when it no longer reverse-applies there or its tests are gone,
at the fix's own commit (--base) — runs the commit's test files twice with the fix and once without,
and keeps tests passing with it and failing without as FAIL_TO_PASS (a test whose id or result
changes between the two runs is dropped). The base hides them (by name, or — for tests named at run
time from a table or a fixture file — by putting the test files the fix changed back as they were)
and drops AGENTS.md / CLAUDE.md and the changelog lines the fix added.

Each kept instance is written as it is found, and each decided candidate goes into OUT's candidates
log (FILE.candidates.jsonl). Ctrl-C or SIGTERM stops after printing the table of what was decided;
--resume goes on from there. "acilab tasks synth --help" builds instances from mutants instead.

${BUILD_NOTE}`;

export const TASKS_SYNTH_OPTIONS = {
  repo: REPO,
  max: { type: "string", value: "N", help: "how many instances to keep", default: String(DEFAULT_SYNTH_MAX) },
  seed: {
    type: "string",
    value: "S",
    help: "seed of the pseudo-random choice of mutants: the same seed gives the same instances",
    default: "0",
  },
  ...buildOptions("synth"),
} as const;

export const TASKS_SYNTH_HELP = `acilab tasks synth — build SWE-bench instances by mutating a git repository's functions

Usage: acilab tasks synth --repo PATH [--max N] [--seed S] [--out FILE]

Options:
${optionLines(TASKS_SYNTH_OPTIONS)}

Mutates functions (tree-sitter: comparison flips, off-by-one, dropped conditions, swapped arguments,
removed \`from None\`, wrong defaults) and keeps the mutants that make tests fail; the same --seed
keeps the same ones. "acilab tasks mirror --help" builds instances from fix commits instead.

${BUILD_NOTE}`;

export const TASKS_MINIWOB_OPTIONS = {
  out: {
    type: "string",
    value: "DIR",
    help: "the folder the task files go to (one <page>.yaml per page; files of the same name are replaced)",
    default: "miniwob-tasks",
  },
  seed: {
    type: "string",
    value: "S",
    help: "Math.seedrandom's seed, written into every file: the same seed draws the same problem on each page",
    default: "acilab",
  },
} as const;

export const TASKS_MINIWOB_HELP = `acilab tasks miniwob — task files for a MiniWoB++ checkout, one per page

Usage: acilab tasks miniwob DIR [--out DIR] [--seed S]

  DIR   a checkout of https://github.com/Farama-Foundation/miniwob-plusplus (its root, or miniwob/html)

Options:
${optionLines(TASKS_MINIWOB_OPTIONS)}

Each file serves the checkout's miniwob/html folder on 127.0.0.1 and does what MiniWoB's Python
environment does at reset (the seed, the "train" data mode, the episode started without its START
cover); the instruction is the page's utterance and the grade its raw reward (1 right, -1 wrong), the
episode ending when the page says it is done. The files have no reference script: run them with a
model, or with --policy scripted:<steps.json>:

  acilab cua --task ./miniwob-tasks --observe a11y --policy anthropic:claude-sonnet-4-5

See docs/computer-use.md (A benchmark's pages, unchanged: MiniWoB++).`;
