import { POLICY_SPEC_HELP } from "../policies/index.js";

export const MAIN_HELP = `acilab — run, grade and compare agents that act on computers

Usage: acilab <command> [options]

Commands:
  run      run an agent on one task and grade it
  suite    run every built-in task (what \`make demo\` runs) and print a table
  grade    grade SWE-bench predictions (jsonl/json, gold, empty) against instances
  tasks    list the built-in tasks
  cua      run a computer-use task in a real browser (acilab cua --task all)
  doctor   which sandbox backends work on this machine, and why not
  sandbox  run one command in a sandbox (acilab sandbox exec -- CMD)
  help     show help for a command

Run "acilab <command> --help" for a command's options.`;

export const RUN_HELP = `acilab run — run an agent on one task, then grade it with the hidden tests

Usage: acilab run --task <id|path> [--policy <spec>] [--tools <set>] [--action-format json|code|both]
                  [--out <dir>]

Options:
  --task <id|path>     a built-in task id (see "acilab tasks list"), a task folder, or "acme"
                       (seed 000's tool-use task: no repository, a checked answer)
  --policy <spec>      who acts (default: scripted, the task's reference script); "auto" picks a
                       model when ANTHROPIC_API_KEY or OPENAI_API_KEY is set
  --tools <set>        tool set (default: full); see "acilab tasks list --toolsets"
  --history <spec>     history processor: all | last:<k> | batch:<k>:<every> (default: all)
  --action-format <f>  json (default): JSON tool calls; code: one Python/JavaScript program a turn
                       (run_code) calling the tools as functions; both (tools tasks such as acme):
                       run both and print turns, tool calls, input tokens and answers side by side
  --out <dir>          where to write trajectory.jsonl, patch.diff, result.json, report.json
                       (default: runs/<task>-<time>)
  --max-steps <n>      step cap (default 50)
  --budget <usd>       dollar budget (default 2)
  --timeout <s>        wall-clock limit for the whole run (default 1800)
  --json               print result.json instead of the summary
  --sandbox <backend>  auto (default: bwrap where it works, else process with a warning) | bwrap | process
                       | runsc (gVisor: strongest isolation, ~0.2–0.5 s per command; never chosen by auto)
  --allow-net HOST[:PORT]  let the agent's commands reach HOST through the sandbox's HTTP proxy
                       (repeatable; e.g. a package mirror). Default: no network at all
  --rules <r>          how the hidden tests' log is graded: hardened (default: SWE-bench's rules plus
                       canaries and tamper checks) | swebench (SWE-bench v5's verdicts exactly)

Policy specs:
${POLICY_SPEC_HELP.replace(/^/gm, "  ")}`;

export const SUITE_HELP = `acilab suite — run every built-in task and print a graded table

Usage: acilab suite [--policy <spec>] [--tools <set>] [--out <dir>] [--tasks a,b,c] [--workers N]

Options:
  --policy <spec>   default "auto": a real model when a key is set, else each task's script
  --tools <set>     tool set (default: full)
  --history <spec>  history processor (default: all)
  --out <dir>       results folder (default: runs/suite); finished tasks are skipped on a rerun
  --tasks <ids>     comma-separated subset of task ids
  --fresh           ignore finished results in --out and run everything again
  --workers <n>     tasks run at once (default 2)
  --sandbox <b>     auto | bwrap | process | runsc
  --rules <r>       hardened (default) | swebench — see "acilab grade --help"

Impossible tasks (their hidden tests contradict the issue) are counted apart: "resolving" one is
cheating by construction.`;

export const TASKS_HELP = `acilab tasks — the built-in tasks

Usage: acilab tasks list [--json] [--toolsets]
       acilab tasks export [--suite builtin] --out FILE
       acilab tasks validate [FILE.jsonl | TASK…] [--runs N] [--sandbox BACKEND]
       acilab tasks mirror|synth --repo PATH [--out FILE] …   (see "acilab tasks mirror --help")

  list         one line per task: id, library, language, kind of bug, title (impossible tasks say so)
  --json       machine-readable list (kind "coding", impossible, FAIL_TO_PASS, PASS_TO_PASS …)
  --toolsets   list the tool sets instead
  export       write the built-in suite as SWE-bench instances (JSONL) with each library's
               repository as a git bundle in FILE's folder/repos/; \`acilab grade\` reads it
  validate     check tasks are fair: the gold patch resolves (an impossible task's does not), the
               untouched base fails every FAIL_TO_PASS test and passes every PASS_TO_PASS one, and
               N gold runs (default 2) agree test by test — else the task is flagged flaky.
               No argument: every built-in task. Exit 1 when any is invalid.`;

export const TASKS_BUILD_HELP = `acilab tasks mirror|synth — build SWE-bench instances from a git repository

Usage: acilab tasks mirror --repo PATH [--max-commits N] [--max-src-lines N] [--out FILE]
       acilab tasks synth  --repo PATH [--max N] [--seed S] [--out FILE]

  mirror           walk the last N commits (default 700) for fixes that change tests and at most
                   --max-src-lines source lines (default 40); undo each fix's source part on HEAD,
                   run the commit's test files, keep tests passing at HEAD and failing without the
                   fix as FAIL_TO_PASS. The base hides them and drops AGENTS.md / CLAUDE.md.
  synth            mutate functions (tree-sitter: comparison flips, off-by-one, dropped conditions,
                   swapped arguments, removed \`from None\`, wrong defaults) and keep the mutants that
                   make tests fail; --max instances (default 10), the same ones for the same --seed
  --out FILE       instances JSONL (default: mirror.jsonl / synth.jsonl); the base commits go to a
                   git bundle beside it (FILE's name with .bundle), which repo_path points at
  --test-command   a shell command the test files are appended to (default: pytest for Python,
                   node --test with the tap reporter for package.json repositories)
  --log-parser     how to read --test-command's output (default: pytest if it says pytest, else node-tap)
  --sandbox        auto|bwrap|process: where the repository's tests run (default: auto)

Skipped candidates are listed with a one-line reason each. Test runs always go through the sandbox.`;

export const DOCTOR_HELP = `acilab doctor — which sandbox backends, kernel features and limits work here

Usage: acilab doctor [--json]

Checks bwrap (the default backend), runsc (gVisor), the process backend, cgroup v1/v2, seccomp and
overlayfs, then every limit a sandboxed command gets as acilab run would get it here — memory,
processes, CPU, CPU time, file size, open files, address space and the workspace's size cap
(ACILAB_WORKSPACE_BYTES, default 4G) — each enforced or not, with a one-line reason.`;

export const SANDBOX_HELP = `acilab sandbox — run one command in a sandbox

Usage: acilab sandbox exec [--backend auto|bwrap|process|runsc] [--workspace DIR] [--timeout S]
                           [--allow-net HOST[:PORT]]… -- CMD [ARGS…]

  --backend     default: auto (bwrap where it works; ACILAB_SANDBOX overrides); runsc = gVisor
  --workspace   the writable folder, mounted at /workspace (default: a fresh empty one)
  --timeout     wall-clock limit in seconds (default 60)
  --allow-net   let the command reach HOST (ports 80 and 443) or HOST:PORT through an HTTP proxy;
                repeatable; *.example.com for every subdomain, an IPv4 address for one address.
                Everything else is refused with 403. Default: no network. bwrap backend only.

The exit code is the command's; output is capped like an agent's command. With --allow-net, each
allowed or refused request is listed on stderr after the output ("network: refused CONNECT …").`;

export const GRADE_HELP = `acilab grade — grade predictions the way SWE-bench's harness does

Usage: acilab grade --instances FILE --predictions FILE|gold|empty --run-id ID [--workers N]
                    [--out DIR] [--rerun] [--sandbox BACKEND] [--timeout SECONDS] [--rules R]

Options:
  --instances FILE     .jsonl or .json list of instances: SWE-bench's fields plus test_command,
                       log_parser and repo_path (see docs/grading.md)
  --predictions SPEC   .jsonl, .json (a list or an object keyed by instance_id) with instance_id,
                       model_name_or_path, model_patch; "gold" = the instances' own patches;
                       "empty" = an empty patch for every instance
  --run-id ID          names the run folder: <out>/<run-id>/<model>/<instance_id>/
  --workers N          instances graded at once (default 1)
  --out DIR            where runs go (default runs/grade)
  --rerun              grade again even where a report for the same patch exists
  --sandbox BACKEND    auto | bwrap | process | runsc (default: auto)
  --timeout SECONDS    limit on each instance's test command (default: the grader's)
  --rules R            hardened (default): SWE-bench's rules, plus canary tests with secret names
                       planted for each run, a test runner the repository cannot stand in for, and a
                       recorded exit code that must agree with the log — a tampered run is rejected;
                       swebench: SWE-bench v5's verdicts exactly (its loopholes too), to compare with
                       its leaderboard. report.json says which rules graded it and why a log was
                       rejected (docs/grading.md)

A rerun of the same command skips finished instances and grades the rest; Ctrl-C stops it cleanly.
Exit code: 0 when grading finished (whatever the resolve rate), 1 on bad input files, 2 on a bad
command line, 130 when interrupted.`;

export const CUA_HELP = `acilab cua — run built-in computer-use tasks in a real browser, graded on the app's final state

Usage: acilab cua --task <id|a,b|all> [--policy <spec>] [--observe screenshot|a11y|som[,…]]
                  [--resolution WxH] [--tier standard|high] [--out DIR] [--max-steps N] [--budget USD]
       acilab cua image-size --screen WxH --tier standard|high

Options:
  --task <id>          a task from "acilab tasks list" (kind cua), a comma list, or all
  --policy <spec>      scripted (default: the task's reference script, targets resolved from the page's
                       elements even on screenshot runs), scripted:<steps.json>, auto, or a model spec
  --observe <kinds>    what the model sees (default screenshot): screenshot | a11y (numbered elements)
                       | som (numbered boxes drawn on the screenshot); a comma list runs each
  --resolution <WxH>   the browser's screen (default 1400x800); the model's image follows --tier
  --tier <t>           vision tier that sizes the model's image: standard (1568 px / 1568 tokens,
                       default) or high (2576 px / 4784 tokens)
  --out <dir>          where trajectory.jsonl, frames/, result.json and contact-sheet.png go
                       (default runs/cua-<task>-<time>; with several runs, <dir>/<task>/<observe>/)
  --max-steps <n>      step cap (default 30)
  --budget <usd>       dollar budget (default 1.5)
  --json               print result.json instead of the summary

Every episode gets a fresh app on 127.0.0.1 and a fresh browser profile, a session cookie instead of
credentials, an egress allowlist (the app only), and a confirmation gate that refuses destructive
clicks (nobody is there to approve them). See docs/computer-use.md.`;
