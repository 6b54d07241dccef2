/**
 * The common case of grading in one sandbox start (one bwrap start is ~12 ms, a third of grading's
 * overhead): `git apply` takes the candidate, the graded test files are restored and the test patch
 * applied (steps.ts's PREPARE_BODY), the graded files go to the host over the exec channel (fd 3), the
 * canaries the host planned from them come back (fd 4) and are planted, the channel is closed, and
 * the script becomes the test runner with `exec`.
 *
 * Nothing the candidate wrote runs before the channel is closed — patching, restoring and reading are
 * git, rm and cat on a tree no hook or config of the candidate's can reach — so what arrives on fd 3
 * is the harness's own report, and the runner starts with no way to talk to the host: its output and
 * exit status are all that is left of it, as in the two-start path.
 */
import type { Readable, Writable } from "node:stream";
import type { ExecChannel, ExecResult } from "../sandbox/index.js";
import type { TestFile } from "./canaries/index.js";
import { EMPTY_PLANT, type PlantPlan } from "./plant.js";
import {
  APPLY_REFUSED,
  GIT,
  GIT_ENV,
  PREPARE_BODY,
  type PrepareInput,
  type PrepareResult,
  preparedFrom,
  READ_LIMIT,
  type RecordedStep,
  STEP_FAILED,
  type StepRunner,
} from "./steps.js";

/**
 * After the preparation: report on fd 3 (`<status> <log bytes> <read-back bytes>\n`, the log, the
 * NUL-framed read-back), read the plan on fd 4 (`<count>\n` and, per file to plant,
 * `<path bytes> <text bytes>\n<path><text>`, the file's whole new text), write it, close the channel, become the runner.
 */
const REPORT_PLANT_RUN = `status=$?
{ printf '%s %s %s\\n' "$status" "$(wc -c </tmp/prepare.log)" "$(wc -c </tmp/prepared)"; cat /tmp/prepare.log /tmp/prepared; } >&3
[ "$status" = 0 ] || exit "$status"
read -r count <&4
while [ "$count" -gt 0 ]; do
  read -r plen tlen <&4
  path=$(head -c "$plen" <&4)
  if [ -L "$path" ] || [ ! -f "$path" ]; then echo "acilab: cannot plant tests into $path" >&2; exit ${STEP_FAILED}; fi
  head -c "$tlen" <&4 > "$path" || exit ${STEP_FAILED}
  count=$((count - 1))
done
exec 3>&- 4<&-
exec "\${runner[@]}" </dev/null`;

/** Arguments: the runner's argv length, its argv, then PREPARE_BODY's (base, clear…, --, restore…, --, read…). */
const RUNNER_ARGS = `argc=$1; shift
runner=("\${@:1:$argc}")
shift "$argc"`;

/** stdin: the candidate's byte length on a line, the candidate, the test patch. */
const APPLY_PREPARE_RUN = `set -u
${RUNNER_ARGS}
read -r n
head -c "$n" > /tmp/candidate.patch
cat > /tmp/test.patch
(
${GIT} apply --verbose --whitespace=nowarn /tmp/candidate.patch >&2 || exit ${APPLY_REFUSED}
${PREPARE_BODY}
) >/tmp/prepared 2>/tmp/prepare.log
${REPORT_PLANT_RUN}`;

/** After another strategy applied the candidate: stdin is the test patch. */
const PREPARE_RUN = `set -u
${RUNNER_ARGS}
cat > /tmp/test.patch
(
${PREPARE_BODY}
) >/tmp/prepared 2>/tmp/prepare.log
${REPORT_PLANT_RUN}`;

export type OneStart =
  /** `git apply` refused the candidate (nothing changed): the other strategies come next. */
  | { kind: "refused"; log: string }
  /** Patched, but the tests could not be prepared (restore or test patch failed, no space…). */
  | { kind: "unprepared"; prepared: PrepareResult }
  /** The tests ran; `plan` is what was planted. */
  | { kind: "ran"; run: ExecResult; plan: PlantPlan };

/** The channel's side of the host: read the report, answer with the plan, remember both. */
class PrepareChannel implements ExecChannel {
  report: { status: number; log: string; readBack: string } | undefined;
  plan: PlantPlan | undefined;
  sent: string | undefined;
  failure: string | undefined;

  constructor(private readonly planFor: (files: readonly TestFile[]) => PlantPlan) {}

  open({ fromProgram, toProgram }: { fromProgram: Readable; toProgram: Writable }): void {
    const chunks: Buffer[] = [];
    let size = 0;
    fromProgram.on("data", (chunk: Buffer) => {
      if (this.report || this.failure) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > READ_LIMIT + 1_000_000) {
        this.failure = `the graded files read back exceed ${READ_LIMIT} bytes`;
        toProgram.end();
        return;
      }
      this.tryAnswer(Buffer.concat(chunks), toProgram);
    });
    fromProgram.on("error", () => undefined);
    toProgram.on("error", () => undefined);
  }

  private tryAnswer(data: Buffer, toProgram: Writable): void {
    const eol = data.indexOf(10);
    if (eol < 0) return;
    const header = /^(\d+) (\d+) (\d+)$/.exec(data.subarray(0, eol).toString("utf8").trim());
    if (!header) {
      this.failure = "the preparation sent an unreadable report";
      toProgram.end();
      return;
    }
    const [status, logBytes, readBytes] = [Number(header[1]), Number(header[2]), Number(header[3])];
    if (data.length < eol + 1 + logBytes + readBytes) return; // more is coming
    const body = data.subarray(eol + 1);
    this.report = {
      status,
      log: body.subarray(0, logBytes).toString("utf8"),
      readBack: body.subarray(logBytes, logBytes + readBytes).toString("utf8"),
    };
    if (status !== 0) return; // the script exits by itself
    const prepared = preparedFrom(true, "", this.report.readBack);
    try {
      this.plan = this.planFor(prepared.files);
    } catch (err) {
      this.failure = `could not plan the planted tests: ${(err as Error).message}`;
      toProgram.end();
      return;
    }
    this.sent = encodePlant(this.plan);
    toProgram.end(this.sent);
  }
}

/** fd 4's message for a plan. */
export function encodePlant(plan: PlantPlan): string {
  const parts = [`${plan.files.length}\n`];
  for (const f of plan.files)
    parts.push(`${Buffer.byteLength(f.path)} ${Buffer.byteLength(f.text)}\n${f.path}${f.text}`);
  return parts.join("");
}

interface RunOptions {
  planFor: (files: readonly TestFile[]) => PlantPlan;
  argv: string[];
  timeoutMs: number;
  outputLimit: number;
}

/**
 * Apply (`git apply`), prepare, plant and run in one sandbox start. `planFor` turns the graded files
 * as prepared into the twins and canaries to plant (an empty plan under the swebench rules).
 */
export function gradeInOneStart(
  runner: StepRunner,
  input: PrepareInput,
  options: RunOptions,
): Promise<OneStart> {
  const patch = input.patch.endsWith("\n") ? input.patch : `${input.patch}\n`;
  return startAndRun(runner, input, options, {
    name: "apply (git apply), restore test files, apply the test patch, plant the twins and canaries, run the tests",
    script: APPLY_PREPARE_RUN,
    stdin: `${Buffer.byteLength(patch)}\n${patch}${input.testPatch}`,
  });
}

/** Prepare, plant and run in one sandbox start, after another strategy applied the candidate. */
export function prepareAndRun(
  runner: StepRunner,
  input: PrepareInput,
  options: RunOptions,
): Promise<OneStart> {
  return startAndRun(runner, input, options, {
    name: "restore test files, apply the test patch, plant the twins and canaries, run the tests",
    script: PREPARE_RUN,
    stdin: input.testPatch,
  });
}

async function startAndRun(
  runner: StepRunner,
  input: PrepareInput,
  options: RunOptions,
  what: { name: string; script: string; stdin: string },
): Promise<OneStart> {
  const args = [
    String(options.argv.length),
    ...options.argv,
    input.base,
    ...input.clear,
    "--",
    ...input.restore,
    "--",
    ...input.read,
  ];
  const channel = new PrepareChannel(options.planFor);
  const step: RecordedStep = { name: what.name, script: what.script, args, stdin: what.stdin };
  runner.steps.push(step);
  const run = await runner.sandbox.exec({
    argv: ["bash", "-c", what.script, "acilab-run", ...args],
    env: GIT_ENV,
    timeoutMs: options.timeoutMs,
    outputLimit: options.outputLimit,
    stdin: what.stdin,
    channel,
  });
  if (channel.sent !== undefined) step.fd4 = channel.sent;
  const report = channel.report;
  if (!report) {
    const why =
      channel.failure ?? `the preparation ended without a report (exit ${run.exitCode ?? run.signal})`;
    return {
      kind: "unprepared",
      prepared: { ok: false, error: `${why}\n${run.output.slice(-2000)}`, files: [] },
    };
  }
  if (report.status === APPLY_REFUSED && what.script === APPLY_PREPARE_RUN)
    return { kind: "refused", log: report.log.trim() };
  if (report.status !== 0)
    return {
      kind: "unprepared",
      prepared: preparedFrom(false, report.log.trim() || `exit ${report.status}`, ""),
    };
  return { kind: "ran", run, plan: channel.plan ?? EMPTY_PLANT };
}
