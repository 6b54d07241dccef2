/** `acilab tasks miniwob DIR`: task files for a MiniWoB++ checkout (src/cua/taskfile/miniwob.ts). */
import { relative } from "node:path";
import { DEFAULT_MINIWOB_SEED, writeMiniwobTasks } from "../cua/index.js";
import { git } from "../workspace/index.js";
import { UsageError } from "./args.js";
import { parseOptions } from "./options.js";
import { TASKS_MINIWOB_HELP, TASKS_MINIWOB_OPTIONS } from "./tasks-options.js";

type Out = (line: string) => void;

export async function tasksMiniwobCommand(argv: string[], out: Out): Promise<number> {
  const command = "tasks miniwob";
  const { values, positionals } = parseOptions(command, argv, TASKS_MINIWOB_OPTIONS);
  if (values.help) {
    out(TASKS_MINIWOB_HELP);
    return 0;
  }
  const [dir, extra] = positionals;
  if (dir === undefined)
    throw new UsageError("give the MiniWoB++ checkout: acilab tasks miniwob DIR", command);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`, command);
  const seed = values.seed ?? DEFAULT_MINIWOB_SEED;
  if (seed.trim() === "") throw new UsageError("--seed is empty — give a seed such as 7 or acilab", command);
  let written: ReturnType<typeof writeMiniwobTasks>;
  try {
    written = writeMiniwobTasks(dir, {
      out: values.out ?? "miniwob-tasks",
      seed,
      commit: await commitOf(dir),
    });
  } catch (err) {
    throw new UsageError((err as Error).message, command);
  }
  const shown = relative(process.cwd(), written.out) || ".";
  const folder = shown.startsWith(".") || shown.startsWith("/") ? shown : `./${shown}`;
  out(
    [
      `wrote ${written.files.length} task files to ${shown}/ (seed ${seed}), serving ${written.html}`,
      `run them: acilab cua --task ${folder} --observe a11y --policy <model>`,
    ].join("\n"),
  );
  return 0;
}

/** The checkout's commit, when it is a git repository (recorded in each file). */
async function commitOf(dir: string): Promise<string | undefined> {
  try {
    return (await git(dir, ["rev-parse", "--short=12", "HEAD"])).trim() || undefined;
  } catch {
    return undefined;
  }
}
