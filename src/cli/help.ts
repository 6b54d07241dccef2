import { BON_CURVE_HELP } from "./bon-curve-command.js";
import { CUA_HELP } from "./cua-options.js";
import { ENV_HELP } from "./env-command.js";
import { EXPERIMENT_HELP, INSPECT_HELP } from "./experiment-options.js";
import { EXPORT_HELP } from "./export-command.js";
import { GRADE_HELP } from "./grade-command.js";
import { RUN_HELP } from "./run-command.js";
import { DOCTOR_HELP, SANDBOX_HELP } from "./sandbox-commands.js";
import { SUITE_HELP } from "./suite-command.js";
import { TASKS_HELP } from "./tasks-options.js";
import { WORKER_HELP } from "./worker-command.js";

export const MAIN_HELP = `acilab — run, grade and compare agents that act on computers

Usage: acilab <command> [options]

Commands:
  run         run an agent on one task and grade it
  suite       run every built-in task (what \`make demo\` runs) and print a table
  grade       grade SWE-bench predictions (jsonl/json, gold, empty) against instances
  tasks       list the built-in tasks
  cua         run a computer-use task in a real browser (acilab cua --task all)
  experiment  write, check and run experiment files: arms × tasks × repeats (init, validate, run, report)
  export      an experiment's attempts as training data: masks, rewards, advantages (export rollouts)
  inspect     one run's trajectory, patch and grading as an offline HTML page
  env         environments built once per repository commit: build, list, prune
  bon-curve   coverage (pass@n) against best-of-n under a noisy verifier, computed exactly
  worker      run queued attempts and grading jobs from a Redis (experiment run / grade --redis)
  doctor      which sandbox backends work on this machine, and why not
  sandbox     run one command in a sandbox (acilab sandbox exec -- CMD)
  help        show help for a command

Run "acilab <command> --help" for a command's options.`;

/** `acilab help <command>`: each command's own page (they live with the command's option table). */
const COMMAND_HELP: Record<string, string> = {
  run: RUN_HELP,
  suite: SUITE_HELP,
  tasks: TASKS_HELP,
  grade: GRADE_HELP,
  doctor: DOCTOR_HELP,
  sandbox: SANDBOX_HELP,
  cua: CUA_HELP,
  experiment: EXPERIMENT_HELP,
  inspect: INSPECT_HELP,
  export: EXPORT_HELP,
  env: ENV_HELP,
  worker: WORKER_HELP,
  "bon-curve": BON_CURVE_HELP,
};

export function helpFor(command: string | undefined): string {
  return (command !== undefined ? COMMAND_HELP[command] : undefined) ?? MAIN_HELP;
}
