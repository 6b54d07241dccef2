import { UsageError } from "./args.js";
import { helpFor } from "./help.js";

type Out = (text: string) => void;

/**
 * Each command's module is loaded when it runs: together they pull in a browser driver, a queue
 * client and plotting, seconds of start-up that `acilab agent` (and every other command) should not
 * pay for the others. Ctrl-C (or SIGTERM) stops the current run cleanly: the running command is killed, the run ends with
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
        out(await helpFor(rest[0]));
        return 0;
      case "run":
        return await (await import("./run-command.js")).runCommand(rest, out);
      case "suite": {
        const [{ suiteCommand }, { interruptSignal }] = await Promise.all([
          import("./suite-command.js"),
          import("./interrupt.js"),
        ]);
        return await suiteCommand(rest, out, { interruptSignal });
      }
      case "grade":
        return await (await import("./grade-command.js")).gradeCommand(rest, out, err);
      case "doctor":
        return await (await import("./sandbox-commands.js")).doctorCommand(rest, out);
      case "sandbox":
        return await (await import("./sandbox-commands.js")).sandboxCommand(rest, out, err);
      case "tasks":
        if (rest[0] === "mirror" || rest[0] === "synth")
          return await (await import("./tasks-build.js")).tasksBuildCommand(rest, out, err);
        return await (await import("./tasks-commands.js")).tasksCommand(rest, out);
      case "experiment": // experiment files: init, validate, run (src/cli/experiment-command.ts)
        return await (await import("./experiment-command.js")).experimentCommand(rest, out, err);
      case "export": // rollouts as training data (src/cli/export-command.ts, src/rollouts)
        return await (await import("./export-command.js")).exportCommand(rest, out, err);
      case "env": // environment layers: build, list, prune (src/cli/env-command.ts)
        return await (await import("./env-command.js")).envCommand(rest, out, err);
      case "inspect": // one run folder as an HTML page (src/cli/inspect-command.ts)
        return await (await import("./inspect-command.js")).inspectCommand(rest, out, err);
      case "worker": // queued work on BullMQ/Redis (src/cli/worker-command.ts, src/scale)
        return await (await import("./worker-command.js")).workerCommand(rest, out);
      case "bon-curve": // seed 000's verifier model, exactly (src/stats/sampling.ts)
        return await (await import("./bon-curve-command.js")).bonCurveCommand(rest, out);
      case "agent": // the production harness on your own repository (src/cli/agent-command.ts, src/agent)
        return await (await import("./agent-command.js")).agentCommand(rest, out, err);
      case "cua": // computer-use tasks (src/cli/cua-command.ts)
        {
          const [{ cuaCommand }, { interruptSignal }] = await Promise.all([
            import("./cua-command.js"),
            import("./interrupt.js"),
          ]);
          return await cuaCommand(rest, out, { interruptSignal });
        }
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
