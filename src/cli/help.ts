export const MAIN_HELP = `acilab — run, grade and compare agents that act on computers

Usage: acilab <command> [options]

Commands:
  run         run an agent on one task and grade it
  suite       run every built-in task (what \`make demo\` runs) and print a table
  grade       grade SWE-bench predictions (jsonl/json, gold, empty) against instances
  tasks       list the built-in tasks
  agent       an agent on your own repository: sandboxed, checkpointed, applied only when you say so
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

/** `acilab help <command>`: each command's own page, loaded with its option table only when asked for. */
const COMMAND_HELP: Record<string, () => Promise<string>> = {
  run: async () => (await import("./run-command.js")).RUN_HELP,
  suite: async () => (await import("./suite-command.js")).SUITE_HELP,
  tasks: async () => (await import("./tasks-options.js")).TASKS_HELP,
  grade: async () => (await import("./grade-command.js")).GRADE_HELP,
  doctor: async () => (await import("./sandbox-commands.js")).DOCTOR_HELP,
  sandbox: async () => (await import("./sandbox-commands.js")).SANDBOX_HELP,
  agent: async () => (await import("./agent-options.js")).AGENT_HELP,
  cua: async () => (await import("./cua-options.js")).CUA_HELP,
  experiment: async () => (await import("./experiment-options.js")).EXPERIMENT_HELP,
  inspect: async () => (await import("./experiment-options.js")).INSPECT_HELP,
  export: async () => (await import("./export-command.js")).EXPORT_HELP,
  env: async () => (await import("./env-command.js")).ENV_HELP,
  worker: async () => (await import("./worker-command.js")).WORKER_HELP,
  "bon-curve": async () => (await import("./bon-curve-command.js")).BON_CURVE_HELP,
};

export async function helpFor(command: string | undefined): Promise<string> {
  const page = command !== undefined ? COMMAND_HELP[command] : undefined;
  return page ? page() : MAIN_HELP;
}
