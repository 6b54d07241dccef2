import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  BACKEND_CHOICES,
  type DoctorCheck,
  detectBackends,
  formatDecisions,
  formatDoctor,
  type NetworkPolicy,
  openSandbox,
} from "../sandbox/index.js";
import { checkRedisUrl, queueChecks } from "../scale/index.js";
import { probeWorkspaceCap } from "../workspace/index.js";
import { allowNetOption, numberOption, sandboxOption, UsageError } from "./args.js";
import { optionLines, parseOptions } from "./options.js";
import { ALLOW_NET, QUEUE_OPTIONS, SANDBOX } from "./shared-options.js";

type Out = (text: string) => void;

export const DOCTOR_OPTIONS = {
  json: { type: "boolean", help: "print the checks as JSON instead of the table" },
  redis: {
    type: "string",
    value: "<url>",
    help: "also check a queue: Redis reachable, its version and settings, the workers on it and their versions",
  },
  queue: QUEUE_OPTIONS.queue,
} as const;

export const DOCTOR_HELP = `acilab doctor — which sandbox backends, kernel features and limits work here

Usage: acilab doctor [--json] [--redis URL [--queue NAME]]

Options:
${optionLines(DOCTOR_OPTIONS)}

Checks bwrap (what the default, auto, uses where it works), runsc (gVisor), the process backend, cgroup v1/v2, seccomp and
overlayfs, then every limit a sandboxed command gets as acilab run would get it here — memory,
processes, CPU, CPU time, file size, open files, address space and the workspace's size cap
(ACILAB_WORKSPACE_BYTES, default 4G) — each enforced or not, with a one-line reason; then the browser
box acilab cua runs Chromium in (started once to check: uid, network namespace, proxy-only egress,
read-only system, private home and /tmp, crash reporting, cgroup limits, Chromium's own sandbox). With --redis,
what a worker machine needs too: Redis reachable (version ≥ 6.2, maxmemory-policy noeviction,
persistence), and the workers alive on the queue with their acilab versions. Exit code 1 when the
default sandbox (bwrap) or the queue check fails.`;

/** A command with no deadline of its own still ends: long enough for a build, short enough to notice. */
const EXEC_TIMEOUT_S = 60;

export const SANDBOX_EXEC_OPTIONS = {
  backend: SANDBOX,
  workspace: {
    type: "string",
    value: "DIR",
    help: "the writable folder, mounted at /workspace",
    defaultHelp: "a fresh empty one",
  },
  timeout: {
    type: "string",
    value: "S",
    help: "wall-clock limit in seconds",
    default: String(EXEC_TIMEOUT_S),
  },
  "allow-net": ALLOW_NET,
} as const;

export const SANDBOX_HELP = `acilab sandbox — run one command in a sandbox

Usage: acilab sandbox exec [--backend ${BACKEND_CHOICES.join("|")}] [--workspace DIR] [--timeout S]
                           [--allow-net HOST[:PORT]]… -- CMD [ARGS…]

Options:
${optionLines(SANDBOX_EXEC_OPTIONS)}

With --allow-net (bwrap backend only), every other host is refused with 403, and each allowed or
refused request is listed on stderr after the output ("network: refused CONNECT …"). The exit code
is the command's; output is capped like an agent's command.`;

/** `acilab doctor`: which sandbox backends and kernel features work on this machine, and why not. */
export async function doctorCommand(argv: string[], out: Out): Promise<number> {
  const { values } = parseOptions("doctor", argv, DOCTOR_OPTIONS);
  if (values.help) {
    out(DOCTOR_HELP);
    return 0;
  }
  // The workspace's size cap is the checkout's to enforce and to report.
  const workspace = async () => ({
    kind: "limit" as const,
    name: "workspace size",
    ...(await probeWorkspaceCap()),
  });
  // The browser box is checked by starting it, as an episode would (Playwright loaded only here).
  const { browserBoxChecks } = await import("../cua/index.js");
  const [checks, browser]: [DoctorCheck[], DoctorCheck[]] = await Promise.all([
    detectBackends({ limits: [workspace] }),
    browserBoxChecks(),
  ]);
  checks.push(...browser);
  if (values.redis !== undefined) {
    try {
      checkRedisUrl(values.redis);
    } catch (e) {
      throw new UsageError((e as Error).message, "doctor");
    }
    checks.push(...(await queueChecks(values.redis, values.queue)));
  }
  out(values.json ? JSON.stringify(checks, null, 2) : formatDoctor(checks));
  if (values.redis === undefined) return 0;
  const failed = checks.filter(
    (c) => !c.ok && ((c.kind === "backend" && c.name === "bwrap") || c.kind === "queue"),
  );
  return failed.length > 0 ? 1 : 0;
}

/**
 * `acilab sandbox exec [--backend B] [--workspace DIR] [--timeout S] [--allow-net HOST[:PORT]]… -- CMD…`:
 * run one command sandboxed; with --allow-net, the proxy's decisions follow on stderr.
 */
export async function sandboxCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    out(SANDBOX_HELP);
    return 0;
  }
  if (sub !== "exec") throw new UsageError(`unknown subcommand "${sub}"`, "sandbox");
  const { values, positionals } = parseOptions("sandbox exec", rest, SANDBOX_EXEC_OPTIONS);
  if (values.help) {
    out(SANDBOX_HELP);
    return 0;
  }
  if (positionals.length === 0)
    throw new UsageError("give the command after --, e.g. acilab sandbox exec -- id -u", "sandbox exec");
  const backend = sandboxOption(values.backend, "sandbox exec");
  const allow = allowNetOption(values["allow-net"], "sandbox exec");
  const network: NetworkPolicy = allow.length > 0 ? { allow } : "none";
  const scratch = values.workspace === undefined;
  const workspace = scratch
    ? realpathSync(mkdtempSync(join(tmpdir(), "acilab-exec-")))
    : resolve(values.workspace as string);
  const timeoutS = numberOption(values.timeout, "timeout", "sandbox exec");
  let opened: Awaited<ReturnType<typeof openSandbox>>;
  try {
    // A scratch folder is ours to hand to the sandbox user; the user's own directory stays theirs:
    // shown to the sandbox uid through an idmapped mount (src/sandbox/bwrap/idmap.ts).
    opened = await openSandbox({
      workspace,
      backend,
      network,
      ...(scratch ? { adoptWorkspace: true } : { adoptWorkspace: false, mapWorkspaceOwner: true }),
    });
  } catch (e) {
    if (scratch) rmSync(workspace, { recursive: true, force: true });
    throw e;
  }
  const { sandbox, warning } = opened;
  if (warning) err(`warning: ${warning}`);
  try {
    const result = await sandbox.exec({ argv: positionals, timeoutMs: timeoutS * 1000 });
    if (result.stdout) process.stdout.write(result.stdout);
    if (result.stderr) process.stderr.write(result.stderr);
    for (const w of result.warnings ?? []) err(`warning: ${w}`);
    if (result.timedOut)
      err(`acilab: timed out after ${timeoutS} s; the command and its children were killed`);
    if (network !== "none") for (const line of formatDecisions(sandbox.networkLog())) err(`network: ${line}`);
    return result.exitCode ?? 128 + 9;
  } finally {
    await sandbox.close();
    if (scratch) rmSync(workspace, { recursive: true, force: true });
  }
}
