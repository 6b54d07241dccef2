/**
 * Repair: k candidates sampled for the localised code (the first greedy, the rest at the spec's
 * temperature), each read as SEARCH/REPLACE blocks, applied to the base text, written into a scratch
 * copy-on-write checkout through the workspace's safe writes and read back as a git patch. Nothing
 * the model wrote is run on the host; a candidate that does not parse or apply is counted, not fatal.
 */
import type { Checkout } from "../workspace/index.js";
import { writeTextInside } from "../workspace/index.js";
import type { StageModel } from "./model.js";
import { repairPrompt } from "./prompts.js";
import type { LineRange } from "./replies.js";
import { applySearchReplace, parseEdits } from "./search-replace.js";
import { segmentAround } from "./segments.js";

export type CandidateStatus = "applied" | "malformed" | "not_applied" | "no_change";

export interface RepairCandidate {
  /** 1-based. */
  sample: number;
  temperature: number;
  status: CandidateStatus;
  /** Why it is not applied; empty when it is. */
  reason: string;
  /** The edited files' new text (applied candidates only). */
  files: Map<string, string>;
  /** The git patch against the base; "" unless applied. */
  patch: string;
}

export interface RepairInput {
  issue: string;
  ranges: LineRange[];
  /** The base text of every file localisation chose: the only files a candidate may edit. */
  base: ReadonlyMap<string, string>;
  k: number;
  temperature: number;
  model: StageModel;
  /** A scratch checkout at the base: each candidate is written, diffed, then reset. */
  scratch: Checkout;
}

export async function repair(input: RepairInput): Promise<RepairCandidate[]> {
  const segments = [...input.base].flatMap(([path, text]) => {
    const ranges = input.ranges.filter((r) => r.path === path);
    return ranges.length === 0 ? [] : [{ path, code: segmentAround(text, ranges) }];
  });
  const prompt = repairPrompt(input.issue, segments);
  const editable = new Set(segments.map((s) => s.path));
  const out: RepairCandidate[] = [];
  for (let sample = 1; sample <= input.k; sample++) {
    // Agentless's sampling: one greedy answer, then k-1 at temperature for variety.
    const temperature = sample === 1 ? 0 : input.temperature;
    const reply = await input.model.ask("repair", prompt, temperature);
    out.push({ sample, temperature, ...(await candidateFrom(reply, editable, input)) });
  }
  return out;
}

async function candidateFrom(
  reply: string,
  editable: ReadonlySet<string>,
  input: RepairInput,
): Promise<Pick<RepairCandidate, "status" | "reason" | "files" | "patch">> {
  const none = { files: new Map<string, string>(), patch: "" };
  const parsed = parseEdits(reply, editable);
  if (parsed.problems.length > 0) return { status: "malformed", reason: parsed.problems.join("; "), ...none };
  const applied = applySearchReplace(input.base, parsed.edits);
  if (!applied.ok) return { status: "not_applied", reason: applied.reason, ...none };
  const changed = new Map([...applied.files].filter(([path, text]) => input.base.get(path) !== text));
  if (changed.size === 0)
    return { status: "no_change", reason: "every block replaces text with itself", ...none };
  try {
    for (const [path, text] of changed) await writeTextInside(input.scratch.root, path, text, "existing");
    const { diff } = await input.scratch.patch();
    return { status: "applied", reason: "", files: changed, patch: diff };
  } finally {
    await input.scratch.reset();
  }
}
