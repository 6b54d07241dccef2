import { POLICY_SPEC_HELP } from "../policies/index.js";

export const MAIN_HELP = `acilab — run, grade and compare agents that act on computers

Usage: acilab <command> [options]

Commands:
  run      run an agent on one task and grade it
  suite    run every built-in task (what \`make demo\` runs) and print a table
  tasks    list the built-in tasks
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

Policy specs:
${POLICY_SPEC_HELP.replace(/^/gm, "  ")}`;

export const SUITE_HELP = `acilab suite — run every built-in task and print a graded table

Usage: acilab suite [--policy <spec>] [--tools <set>] [--out <dir>] [--tasks a,b,c]

Options:
  --policy <spec>   default "auto": a real model when a key is set, else each task's script
  --tools <set>     tool set (default: full)
  --history <spec>  history processor (default: all)
  --out <dir>       results folder (default: runs/suite); finished tasks are skipped on a rerun
  --tasks <ids>     comma-separated subset of task ids
  --fresh           ignore finished results in --out and run everything again`;

export const TASKS_HELP = `acilab tasks — the built-in tasks

Usage: acilab tasks list [--json] [--toolsets]

  list         one line per task: id, language, title
  --json       machine-readable list
  --toolsets   list the tool sets instead`;

export const DOCTOR_HELP = `acilab doctor — which sandbox backends and kernel features work here

Usage: acilab doctor [--json]

Checks bwrap (the default backend), runsc (gVisor), the process backend, cgroup v1/v2, seccomp and
overlayfs, each with a one-line reason.`;

export const SANDBOX_HELP = `acilab sandbox — run one command in a sandbox

Usage: acilab sandbox exec [--backend auto|bwrap|process] [--workspace DIR] [--timeout S] -- CMD [ARGS…]

  --backend     default: auto (bwrap where it works; ACILAB_SANDBOX overrides)
  --workspace   the writable folder, mounted at /workspace (default: a fresh empty one)
  --timeout     wall-clock limit in seconds (default 60)

The exit code is the command's; output is capped like an agent's command.`;
