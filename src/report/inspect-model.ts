/**
 * What the trajectory inspector shows of one run, built from the files the run left (pure): each turn
 * with its thought, actions and arguments, observations, tokens, cost, latency and files changed; the
 * task statement; the patch; the grading report's per-test statuses; and, for computer use, the frame
 * after each turn. Long text is cut head-and-tail with a note, so one runaway observation cannot make
 * a report too large to open; the trajectory on disk keeps it whole.
 */
import type { TrajectoryRecord, TurnRecord } from "../trajectory/index.js";
import { capText } from "../trajectory/index.js";
import { type ActionView, actionView } from "./action-view.js";
import {
  asList,
  asNumber,
  asRecord,
  asText,
  headAndTail,
  INSPECT_CAPS,
  isRecord,
  numOrNull,
  str,
} from "./fields.js";

export { type ActionView, actionView } from "./action-view.js";
export { INSPECT_CAPS } from "./fields.js";

/** Turns one attempt shows (head and tail): with the caps above, about 10 MB at worst. */
export const MAX_TURNS_SHOWN = 300;
/** A code action's nested calls shown (head and tail): a program may make 1,000. */
export const MAX_CALLS_SHOWN = 40;

export interface InspectedCall {
  tool: string;
  input: string;
  output: string;
  error: string | null;
}

export interface InspectedAction {
  tool: string;
  /** The arguments as indented JSON (or the raw text the model sent when it was not JSON). */
  input: string;
  view: ActionView;
  /** What the model read; empty for a command, whose view carries its output. */
  observation: string;
  error: string | null;
  duration_ms: number;
  files_changed: string[];
  /** A code action's nested tool calls (head and tail), and how many were left out between them. */
  calls: InspectedCall[];
  calls_cut: number;
}

export interface InspectedTurn {
  step: number;
  thought: string;
  actions: InspectedAction[];
  format_error: string | null;
  tokens_in: number;
  tokens_out: number;
  cache_read: number;
  estimated: boolean;
  cost_usd: number | null;
  latency_ms: number;
  /** Computer use: the frame after this turn's action as a data: URI, or why there is none. */
  frame: { src: string } | { missing: string } | null;
  /** Computer use: what the environment executed, in screen pixels. */
  screen_action: string | null;
  blocked: string | null;
}

export type TestStatus = "passed" | "failed";

export interface InspectedGrading {
  applied: boolean | null;
  resolved: boolean | null;
  detail: string | null;
  /** FAIL_TO_PASS and PASS_TO_PASS first (the ones that decide), then the rest SWE-bench reports. */
  groups: { name: string; tests: { name: string; status: TestStatus }[] }[];
}

export interface InspectedAttempt {
  /** Unique within a page: the attempt id, or the run folder's name. */
  key: string;
  title: string;
  kind: string;
  /** The experiment's coordinates, when the run was one of its attempts. */
  arm: string | null;
  task: string;
  repeat: number | null;
  status: string;
  resolved: boolean | null;
  /** The task's hidden tests contradict its statement: "resolved" is cheating, unresolved is right. */
  impossible: boolean;
  stop_reason: string | null;
  detail: string | null;
  failure: string | null;
  policy: string | null;
  steps: number | null;
  wall_s: number | null;
  cost_usd: number | null;
  tokens_in: number | null;
  tokens_out: number | null;
  statement: string | null;
  /** ok, truncated, missing or unreadable: the inspector says which and why (warnings). */
  trajectory: string;
  warnings: string[];
  turns: InspectedTurn[];
  patch: string | null;
  grading: InspectedGrading | null;
}

/** What a run folder holds, already read (inspect-read.ts); absent files are null. */
export interface RunFiles {
  records: TrajectoryRecord[] | null;
  trajectory: string;
  warnings: string[];
  result: Record<string, unknown> | null;
  patch: string | null;
  report: unknown;
  /** Frame refs (as turns and result.json name them) → data: URIs. */
  frames: ReadonlyMap<string, string>;
  /** Frames the page had no room left for. */
  framesLeftOut: ReadonlySet<string>;
}

export interface AttemptCoordinates {
  key: string;
  arm: string | null;
  task: string;
  repeat: number | null;
  status: string;
  failure: string | null;
  /** Why an attempt that never ran has no trajectory (no_script, error). */
  error: string | null;
  /** The experiment knows the task is impossible (absent: the run's report.json says, or not). */
  impossible?: boolean;
}

function inputText(input: unknown, parseError?: string): string {
  if (input === undefined) return "(no arguments recorded)";
  if (typeof input === "string" && parseError) return capText(input, INSPECT_CAPS.input);
  return capText(JSON.stringify(input, null, 2) ?? String(input), INSPECT_CAPS.input);
}

/** Every input token: billed at full price, read from the cache, written to it. */
const allInputTokens = (full: unknown, cacheRead: unknown, cacheWrite: unknown) =>
  asNumber(full) + asNumber(cacheRead) + asNumber(cacheWrite);

function describeScreenAction(a: unknown): string | null {
  if (!isRecord(a)) return null;
  const { kind, type, ...rest } = a;
  const args = Object.entries(rest)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(" ");
  return `${String(kind ?? type ?? "action")}${args ? ` ${args}` : ""}`;
}

/** A code action's nested calls, head and tail when there are many. */
function callsOf(value: unknown): { calls: InspectedCall[]; calls_cut: number } {
  const { items, cut } = headAndTail(asList(value), MAX_CALLS_SHOWN);
  return {
    calls: items.map((v) => {
      const c = asRecord(v);
      return {
        tool: str(c.tool) ?? "?",
        input: inputText(c.input),
        output: capText(asText(c.output), INSPECT_CAPS.observation),
        error: str(c.error),
      };
    }),
    calls_cut: cut,
  };
}

function turnOf(t: TurnRecord, files: Pick<RunFiles, "frames" | "framesLeftOut">): InspectedTurn {
  const raw = t as unknown as Record<string, unknown>;
  const cua = isRecord(raw.cua) ? raw.cua : null;
  const ref = cua ? str(cua.frame) : null;
  const src = ref ? files.frames.get(ref) : undefined;
  const usage = asRecord(raw.usage);
  const cacheRead = asNumber(usage.cacheReadTokens);
  return {
    step: asNumber(raw.step),
    thought: capText(asText(asRecord(raw.response).content), INSPECT_CAPS.thought),
    actions: asList(raw.actions).map((value) => {
      const a = asRecord(value);
      const call = asRecord(a.call);
      const view = actionView(a);
      return {
        tool: str(call.name) ?? "?",
        input: inputText(call.input, str(call.parseError) ?? undefined),
        view,
        // A command's view holds its output already: the page carries it once.
        observation: view.kind === "command" ? "" : capText(asText(a.observation), INSPECT_CAPS.observation),
        error: str(a.error),
        duration_ms: asNumber(a.duration_ms),
        files_changed: asList(a.files_changed).map(asText),
        ...callsOf(a.calls),
      };
    }),
    format_error: str(raw.format_error),
    tokens_in: allInputTokens(usage.inputTokens, usage.cacheReadTokens, usage.cacheWriteTokens),
    tokens_out: asNumber(usage.outputTokens),
    cache_read: cacheRead,
    estimated: usage.estimated === true,
    cost_usd: numOrNull(raw.cost_usd),
    latency_ms: asNumber(raw.latency_ms),
    frame: ref
      ? src
        ? { src }
        : {
            missing: files.framesLeftOut.has(ref)
              ? `frame ${ref} left out: the page's room for frames is spent (it is in the run folder)`
              : `frame ${ref} is not beside the trajectory`,
          }
      : null,
    screen_action: cua ? describeScreenAction(cua.screen_action) : null,
    blocked: cua ? str(cua.blocked) : null,
  };
}

/**
 * The turns a person can read. A record is JSON someone else wrote (a torn or edited file); one whose
 * shape is wrong is named in the warnings and skipped, never allowed to take the page down. A run of
 * more than MAX_TURNS_SHOWN turns shows its head and tail, with a note of how many are left out.
 */
function turnsOf(records: readonly TrajectoryRecord[], files: RunFiles, warnings: string[]): InspectedTurn[] {
  const all = records.filter((r) => r?.type === "turn");
  const head = Math.ceil(MAX_TURNS_SHOWN / 2);
  const tail = MAX_TURNS_SHOWN - head;
  const shown = all.length > MAX_TURNS_SHOWN ? [...all.slice(0, head), ...all.slice(-tail)] : all;
  if (shown.length < all.length)
    warnings.push(
      `${all.length - shown.length} of ${all.length} turns left out of the page (the first ${head} and last ${tail} are shown; all are in trajectory.jsonl)`,
    );
  const turns: InspectedTurn[] = [];
  for (const r of shown) {
    try {
      turns.push(turnOf(r as TurnRecord, files));
    } catch (e) {
      warnings.push(
        `turn record ${records.indexOf(r) + 1} is not in the trajectory format (${e instanceof Error ? e.message : String(e)}): left out`,
      );
    }
  }
  return turns;
}

/** The first user message of the first request: the task as the agent was given it. */
function statementOf(records: readonly TrajectoryRecord[]): string | null {
  const first = records.find((r) => r.type === "turn");
  const messages = asList(asRecord(asRecord(first).request).messages_from_first_change);
  const content = asRecord(messages.find((m) => isRecord(m) && m.role === "user")).content;
  return typeof content === "string" ? capText(content, INSPECT_CAPS.statement) : null;
}

/** A SWE-bench per-instance report (`{id: {…, impossible: true}}`) that marks its task impossible. */
function reportSaysImpossible(report: unknown): boolean {
  return isRecord(report) && Object.values(report).some((e) => isRecord(e) && e.impossible === true);
}

const GROUP_ORDER = ["FAIL_TO_PASS", "PASS_TO_PASS", "FAIL_TO_FAIL", "PASS_TO_FAIL"];

/** SWE-bench's report (`{id: {tests_status: {GROUP: {success, failure}}}}`) or acilab's grade block. */
export function gradingOf(report: unknown, result: Record<string, unknown> | null): InspectedGrading | null {
  const grade = result && isRecord(result.grade) ? result.grade : null;
  const entry = isRecord(report) ? Object.values(report).find(isRecord) : undefined;
  const source = entry ?? grade;
  if (!source) return null;
  const status = isRecord(source.tests_status) ? source.tests_status : {};
  const names = [
    ...GROUP_ORDER.filter((g) => g in status),
    ...Object.keys(status).filter((g) => !GROUP_ORDER.includes(g)),
  ];
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return {
    applied:
      typeof source.patch_successfully_applied === "boolean" ? source.patch_successfully_applied : null,
    resolved: typeof source.resolved === "boolean" ? source.resolved : null,
    detail: grade ? str(grade.detail) : null,
    groups: names.map((name) => {
      const g = isRecord(status[name]) ? status[name] : {};
      return {
        name,
        tests: [
          ...list(g.failure).map((t) => ({ name: t, status: "failed" as const })),
          ...list(g.success).map((t) => ({ name: t, status: "passed" as const })),
        ],
      };
    }),
  };
}

export function inspectRun(at: AttemptCoordinates, files: RunFiles): InspectedAttempt {
  const records = (files.records ?? []).filter(isRecord) as TrajectoryRecord[];
  const start = asRecord(records.find((r) => r.type === "run_start"));
  const end = asRecord(records.find((r) => r.type === "run_end"));
  const result = files.result;
  const usage = result && isRecord(result.usage) ? result.usage : null;
  const warnings = [...files.warnings];
  if (at.error) warnings.unshift(at.error);
  const patch = files.patch === null ? null : capText(files.patch, INSPECT_CAPS.patch);
  return {
    key: at.key,
    title: at.arm ? `${at.arm} · ${at.task}${at.repeat !== null ? ` #${at.repeat}` : ""}` : at.task,
    kind: str(result?.kind) ?? (str(start.tools)?.startsWith("cua:") ? "cua" : "coding"),
    arm: at.arm,
    task: at.task,
    repeat: at.repeat,
    status: at.status,
    resolved: typeof result?.resolved === "boolean" ? result.resolved : null,
    impossible: at.impossible ?? reportSaysImpossible(files.report),
    stop_reason: str(result?.stop_reason) ?? str(end.stop_reason),
    detail: str(result?.detail) ?? str(end.detail),
    failure: at.failure,
    policy: str(result?.policy) ?? str(start.policy),
    steps: numOrNull(result?.steps) ?? numOrNull(end.steps),
    wall_s: numOrNull(result?.wall_s) ?? numOrNull(end.wall_s),
    cost_usd: numOrNull(result?.cost_usd) ?? numOrNull(end.cost_usd),
    tokens_in: usage ? allInputTokens(usage.input, usage.cache_read, usage.cache_write) : null,
    tokens_out: usage ? numOrNull(usage.output) : null,
    statement: statementOf(records),
    trajectory: files.trajectory,
    warnings,
    turns: turnsOf(records, files, warnings),
    patch,
    grading: gradingOf(files.report, result),
  };
}
