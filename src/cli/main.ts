import { policyFor, sandboxOption, UsageError } from "./args.js";
import { bonCurveCommand } from "./bon-curve-command.js";
import { cuaCommand } from "./cua-command.js";
import { envCommand } from "./env-command.js";
import { experimentCommand } from "./experiment-command.js";
import { exportCommand } from "./export-command.js";
import { gradeCommand } from "./grade-command.js";
import { helpFor } from "./help.js";
import { inspectCommand } from "./inspect-command.js";
import { interruptSignal } from "./interrupt.js";
import { runCommand } from "./run-command.js";
import { doctorCommand, sandboxCommand } from "./sandbox-commands.js";
import { suiteCommand } from "./suite-command.js";
import { tasksBuildCommand } from "./tasks-build.js";
import { tasksCommand } from "./tasks-commands.js";
import { workerCommand } from "./worker-command.js";

type Out = (text: string) => void;

/**
 * Ctrl-C (or SIGTERM) stops the current run cleanly: the running command is killed, the run ends with
 * reason "aborted" and its files are written. A second Ctrl-C exits at once.
 */

export async function main(
  argv: string[],
  out: Out = (t) => process.stdout.write(`${t}\n`),
  err: Out = (t) => process.stderr.write(`${t}\n`),
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        out(helpFor(rest[0]));
        return 0;
      case "run":
        return await runCommand(rest, out);
      case "suite":
        return await suiteCommand(rest, out, { policyFor, sandboxOption, interruptSignal });
      case "grade":
        return await gradeCommand(rest, out, err);
      case "doctor":
        return await doctorCommand(rest, out);
      case "sandbox":
        return await sandboxCommand(rest, out, err);
      case "tasks":
        if (rest[0] === "mirror" || rest[0] === "synth") return await tasksBuildCommand(rest, out, err);
        return await tasksCommand(rest, out);
      case "experiment": // experiment files: init, validate, run (src/cli/experiment-command.ts)
        return await experimentCommand(rest, out, err);
      case "export": // rollouts as training data (src/cli/export-command.ts, src/rollouts)
        return await exportCommand(rest, out, err);
      case "env": // environment layers: build, list, prune (src/cli/env-command.ts)
        return await envCommand(rest, out, err);
      case "inspect": // one run folder as an HTML page (src/cli/inspect-command.ts)
        return await inspectCommand(rest, out, err);
      case "worker": // queued work on BullMQ/Redis (src/cli/worker-command.ts, src/scale)
        return await workerCommand(rest, out);
      case "bon-curve": // seed 000's verifier model, exactly (src/stats/sampling.ts)
        return await bonCurveCommand(rest, out);
      case "cua": // computer-use tasks (src/cli/cua-command.ts)
        return await cuaCommand(rest, out, { interruptSignal });
      default:
        throw new UsageError(`unknown command "${command}"`, "");
    }
  } catch (e) {
    if (e instanceof UsageError) {
      err(
        `acilab${e.command ? ` ${e.command}` : ""}: ${e.message}\nRun "acilab ${e.command ? `${e.command} ` : ""}--help" for usage.`,
      );
      return 2;
    }
    err(`acilab: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
