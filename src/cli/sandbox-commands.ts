import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  BwrapSandbox,
  detectBackends,
  formatDecisions,
  formatDoctor,
  type NetworkPolicy,
  openSandbox,
  parseAllowRule,
} from "../sandbox/index.js";
import { parseBackend } from "../tasks/index.js";
import { probeWorkspaceCap } from "../workspace/index.js";
import { numberOption, parse, UsageError } from "./args.js";
import { DOCTOR_HELP, SANDBOX_HELP } from "./help.js";

type Out = (text: string) => void;

/** `acilab doctor`: which sandbox backends and kernel features work on this machine, and why not. */
export async function doctorCommand(argv: string[], out: Out): Promise<number> {
  const { values } = parse("doctor", argv, { json: { type: "boolean" } });
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
  const checks = await detectBackends({ limits: [workspace] });
  out(values.json ? JSON.stringify(checks, null, 2) : formatDoctor(checks));
  return 0;
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
  const { values, positionals } = parse("sandbox", rest, {
    backend: { type: "string" },
    workspace: { type: "string" },
    timeout: { type: "string" },
    "allow-net": { type: "string", multiple: true },
  });
  if (values.help) {
    out(SANDBOX_HELP);
    return 0;
  }
  if (positionals.length === 0)
    throw new UsageError("give the command after --, e.g. acilab sandbox exec -- id -u", "sandbox");
  let backend: ReturnType<typeof parseBackend>;
  try {
    backend = parseBackend(values.backend);
  } catch (e) {
    throw new UsageError((e as Error).message, "sandbox");
  }
  const allow = values["allow-net"] ?? [];
  try {
    for (const rule of allow) parseAllowRule(rule);
  } catch (e) {
    throw new UsageError((e as Error).message, "sandbox");
  }
  const network: NetworkPolicy = allow.length > 0 ? { allow } : "none";
  const scratch = values.workspace === undefined;
  const workspace = scratch
    ? realpathSync(mkdtempSync(join(tmpdir(), "acilab-exec-")))
    : resolve(values.workspace as string);
  const timeoutS = numberOption(values.timeout, "timeout", "sandbox") ?? 60;
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
    if (sandbox instanceof BwrapSandbox && network !== "none")
      for (const line of formatDecisions(sandbox.networkLog())) err(`network: ${line}`);
    return result.exitCode ?? 128 + 9;
  } finally {
    await sandbox.close();
    if (scratch) rmSync(workspace, { recursive: true, force: true });
  }
}
