/** What `acilab experiment init` writes: a small experiment that validates, each field explained. */
export const EXAMPLE_EXPERIMENT = `# An acilab experiment: every arm runs every task, \`repeats\` times, and is compared with the
# baseline. Check it with "acilab experiment validate FILE"; docs/experiments.md has every field.
name: whole-file-vs-full
description: Does rewriting whole files instead of string edits change how often a task resolves?

# Fields every arm inherits; an arm's own fields override them.
base:
  policy: auto          # a model when ANTHROPIC_API_KEY or OPENAI_API_KEY is set, else each task's script
  history: all          # all | last:<k> | batch:<k>:<every>
  max_steps: 40
  budget_usd: 1.5
  # action_format: json # json | code
  # sandbox: auto       # auto | bwrap | process | runsc
  # rules: hardened     # hardened | swebench
  # timeout_s: 900
  # allow_net: [pypi.org]
  # memory: on          # on | off: the task repository's AGENTS.md (CLAUDE.md) in the prompt's prefix
  # plan: off           # on | off: the todo_write plan tool
  # repo_map: off       # off | tool | prefix: the tree-sitter repo map as a tool or in the prefix

# Each arm is a name and the run fields it changes (a map from name to fields works too).
arms:
  - name: full
    tools: full         # "acilab tasks list --toolsets" lists the tool sets
  - name: whole-file
    tools: whole-file

# Task ids, globs over them, {suite: builtin}, {instances: FILE} (a "tasks export" or
# "tasks mirror" file, relative to this one) or {cua: all}.
tasks:
  - median-even
  - semver-*

repeats: 1              # attempts per arm and task
workers: 2              # attempts at once
baseline: full          # the arm the others are compared with (default: the first)
seed: 0
`;
