import { POLICY_SPEC_HELP } from "../policies/index.js";

export const MAIN_HELP = `acilab — run, grade and compare agents that act on computers

Usage: acilab <command> [options]

Commands:
  run      run an agent on one task and grade it
  suite    run every built-in task (what \`make demo\` runs) and print a table
  tasks    list the built-in tasks
  help     show help for a command

Run "acilab <command> --help" for a command's options.`;

export const RUN_HELP = `acilab run — run an agent on one task, then grade it with the hidden tests

Usage: acilab run --task <id|path> [--policy <spec>] [--tools <set>] [--out <dir>]

Options:
  --task <id|path>     a built-in task id (see "acilab tasks list") or a task folder
  --policy <spec>      who acts (default: scripted, the task's reference script); "auto" picks a
                       model when ANTHROPIC_API_KEY or OPENAI_API_KEY is set
  --tools <set>        tool set (default: full); see "acilab tasks list --toolsets"
  --history <spec>     history processor: all | last:<k> | batch:<k>:<every> (default: all)
  --out <dir>          where to write trajectory.jsonl, patch.diff, result.json, report.json
                       (default: runs/<task>-<time>)
  --max-steps <n>      step cap (default 50)
  --budget <usd>       dollar budget (default 2)
  --timeout <s>        wall-clock limit for the whole run (default 1800)
  --json               print result.json instead of the summary

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
