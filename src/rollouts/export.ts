/**
 * The edge: an experiment folder read (experiment.db read-only, each done attempt's trajectory and,
 * for partial credit, its report.json) and turned into rollout lines and a summary of what was left
 * out and why. Nothing here decides a reward or a mask; rewards.ts and conversation.ts do.
 */
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type AttemptRow, readExperimentDir } from "../experiment/index.js";
import { type Conversation, ConversationError, conversationOf } from "./conversation.js";
import {
  type DropReason,
  failToPassFraction,
  groupAdvantages,
  type RewardRule,
  rewardOf,
} from "./rewards.js";
import { ROLLOUT_FORMAT, type RolloutLine } from "./schema.js";
import { RENDER, type Tokenizer, tokenize } from "./tokens.js";

/** A report.json larger than this is not a per-instance report; it is not parsed. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;

export interface ExportOptions {
  partialCredit: boolean;
  /** Which runs the verdict rewards (rewards.ts); default `graded`. */
  reward?: RewardRule;
  tokenizer?: Tokenizer;
}

/** One attempt left out, named so a person can find it. */
export interface SkippedAttempt {
  attempt_id: number;
  arm: string;
  task: string;
  repeat: number;
  why: string;
}

export interface ExportSummary {
  experiment: string;
  /** Rows in experiment.db. */
  attempts: number;
  /** Lines written. */
  exported: number;
  /** Attempts that never finished, by status: never exported. */
  not_done: Record<Exclude<AttemptRow["status"], "done">, number>;
  /** Done attempts whose trajectory could not be made into a conversation (missing, cut short, broken). */
  broken: SkippedAttempt[];
  groups: { total: number; kept: number };
  /** Groups without a baseline signal, and how many attempts they held. */
  dropped: Record<DropReason, { groups: number; attempts: number }>;
  partial_credit: boolean;
  reward: RewardRule;
  /** Exported lines whose run never submitted, and lines on impossible tasks (reward 0 there). */
  not_submitted: number;
  impossible: number;
  /** With --partial-credit: attempts rewarded by the verdict because no FAIL_TO_PASS count was readable. */
  no_report: SkippedAttempt[];
  tokenizer: string | null;
}

interface Candidate {
  row: AttemptRow;
  conversation: Conversation;
  group: string;
  reward: number;
  reward_source: RolloutLine["reward_source"];
  submitted: boolean;
  impossible: boolean;
}

function named(row: AttemptRow, why: string): SkippedAttempt {
  return { attempt_id: row.id, arm: armLabel(row), task: row.task, repeat: row.repeat, why };
}

const armLabel = (row: AttemptRow) => (row.arm_version > 1 ? `${row.arm}@${row.arm_version}` : row.arm);

/** The report's FAIL_TO_PASS fraction, or why there is none. */
function partialCredit(dir: string, row: AttemptRow): number | string {
  if (row.report === null) return `no report.json (a ${row.task_kind} attempt has none)`;
  const file = join(dir, row.report);
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return `${row.report} is not a regular file`;
    if (st.size > MAX_REPORT_BYTES) return `${row.report} is ${st.size} bytes, over the cap`;
    const fraction = failToPassFraction(JSON.parse(readFileSync(file, "utf8")));
    return fraction ?? `${row.report} has no FAIL_TO_PASS tests to count`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? `${row.report} is missing`
      : `${row.report} cannot be read (${code ?? (e as Error).message})`;
  }
}

/** Every exportable line of DIR (in attempt order) and the summary. Throws StoreRefused without a store. */
export function exportRollouts(
  dir: string,
  options: ExportOptions,
): { lines: RolloutLine[]; summary: ExportSummary } {
  const input = readExperimentDir(dir);
  const summary: ExportSummary = {
    experiment: input.experiment,
    attempts: input.attempts.length,
    exported: 0,
    not_done: { pending: 0, running: 0, no_script: 0, error: 0 },
    broken: [],
    groups: { total: 0, kept: 0 },
    dropped: { single_attempt: { groups: 0, attempts: 0 }, same_reward: { groups: 0, attempts: 0 } },
    partial_credit: options.partialCredit,
    reward: options.reward ?? "graded",
    not_submitted: 0,
    impossible: 0,
    no_report: [],
    tokenizer: options.tokenizer?.name ?? null,
  };
  const candidates: Candidate[] = [];
  for (const row of input.attempts) {
    if (row.status !== "done") {
      summary.not_done[row.status]++;
      continue;
    }
    const read = input.trajectories.get(row.id);
    // A trajectory cut short would pair a partial conversation with the whole run's reward.
    if (read?.state !== "ok" || !read.records) {
      summary.broken.push(
        named(row, `trajectory ${read?.state ?? "missing"}: ${read?.warnings[0] ?? "not read"}`),
      );
      continue;
    }
    if (row.resolved === null) {
      summary.broken.push(named(row, "done without a verdict in experiment.db"));
      continue;
    }
    let conversation: Conversation;
    try {
      conversation = conversationOf(read.records);
    } catch (e) {
      // Records of the wrong shape (a hand-edited or foreign file) are damage to one attempt, not the export.
      const why = e instanceof ConversationError ? e.message : `records of the wrong shape (${String(e)})`;
      summary.broken.push(named(row, why));
      continue;
    }
    const submitted = row.stop_reason === "submitted";
    const impossible = input.impossible?.has(row.task) === true;
    let credit: number | undefined;
    if (options.partialCredit && !impossible) {
      const found = partialCredit(dir, row);
      if (typeof found === "number") credit = found;
      else summary.no_report.push(named(row, `${found}; rewarded by the verdict`));
    }
    const { reward, source } = rewardOf(
      { resolved: row.resolved, submitted, impossible, credit },
      summary.reward,
    );
    const group = JSON.stringify([row.arm, row.arm_version, row.task_kind, row.task]);
    candidates.push({ row, conversation, group, reward, reward_source: source, submitted, impossible });
  }
  const { kept, dropped } = groupAdvantages(candidates);
  for (const d of dropped) {
    summary.dropped[d.reason].groups++;
    summary.dropped[d.reason].attempts += d.items.length;
  }
  summary.groups = {
    total: new Set(candidates.map((c) => c.group)).size,
    kept: new Set(kept.map((k) => k.item.group)).size,
  };
  const lines = kept
    .sort((a, b) => a.item.row.id - b.item.row.id)
    .map(({ item, advantage, group }) => lineOf(input.experiment, item, advantage, group, options.tokenizer));
  summary.exported = lines.length;
  summary.not_submitted = lines.filter((l) => !l.submitted).length;
  summary.impossible = lines.filter((l) => l.impossible).length;
  return { lines, summary };
}

function lineOf(
  experiment: string,
  c: Candidate,
  advantage: number,
  group: RolloutLine["group"],
  tokenizer: Tokenizer | undefined,
): RolloutLine {
  const { row, conversation } = c;
  return {
    format: ROLLOUT_FORMAT,
    experiment,
    arm: row.arm,
    arm_version: row.arm_version,
    task_kind: row.task_kind,
    task: row.task,
    repeat: row.repeat,
    attempt_id: row.id,
    policy: conversation.policy ?? "(not recorded)",
    model: conversation.model,
    history: conversation.history,
    stop_reason: row.stop_reason ?? "(not recorded)",
    submitted: c.submitted,
    impossible: c.impossible,
    steps: row.steps ?? 0,
    cost_usd: row.cost_usd,
    reward: c.reward,
    reward_source: c.reward_source,
    advantage,
    group,
    tools: conversation.tools,
    messages: conversation.messages,
    mask: conversation.mask,
    ...(tokenizer
      ? {
          tokens: {
            tokenizer: tokenizer.name,
            render: RENDER,
            ...tokenize(conversation.messages, conversation.tools, tokenizer),
          },
        }
      : {}),
  };
}

/** The summary as lines for stderr: what was written, and every reason something was not. */
export function summaryText(s: ExportSummary, target: string): string[] {
  const out = [
    `${s.exported} rollout line${s.exported === 1 ? "" : "s"} of experiment ${s.experiment} → ${target} (${s.groups.kept} of ${s.groups.total} groups kept)`,
  ];
  if (s.not_submitted > 0)
    out.push(
      s.reward === "submitted-only"
        ? `${s.not_submitted} line(s) of runs that never submitted: reward 0 (--reward submitted-only)`
        : `${s.not_submitted} line(s) of runs that never submitted (a limit ended them): rewarded by the hidden tests' verdict on their patch all the same — "submitted": false marks them; --reward submitted-only gives them 0`,
    );
  if (s.impossible > 0)
    out.push(
      `${s.impossible} line(s) on impossible tasks: reward 0, whatever the verdict ("impossible": true)`,
    );
  const notDone = Object.entries(s.not_done).filter(([, n]) => n > 0);
  if (notDone.length > 0)
    out.push(
      `skipped ${notDone.map(([k, n]) => `${n} ${k}`).join(", ")}: attempts that did not finish carry no reward`,
    );
  if (s.dropped.same_reward.groups > 0)
    out.push(
      `dropped ${s.dropped.same_reward.groups} group(s), ${s.dropped.same_reward.attempts} attempts: every attempt got the same reward, so no advantage`,
    );
  if (s.dropped.single_attempt.groups > 0)
    out.push(
      `dropped ${s.dropped.single_attempt.groups} group(s) of a single attempt: no baseline to compare with (run more repeats)`,
    );
  for (const b of s.broken)
    out.push(`skipped attempt ${b.attempt_id} (${b.arm} · ${b.task} #${b.repeat}): ${b.why}`);
  for (const b of s.no_report)
    out.push(`attempt ${b.attempt_id} (${b.arm} · ${b.task} #${b.repeat}): ${b.why}`);
  return out;
}
