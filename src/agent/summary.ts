/** Lines the front ends print about a session: the cost per agent, a diffstat, how to come back. */
import type { Ledger } from "../ledger/index.js";
import type { AgentStart } from "./start.js";

export function costLines(ledger: Ledger): string[] {
  const shares = ledger.byAgent().filter((s) => s.requests > 0);
  if (shares.length === 0) return ["No model requests yet."];
  const t = ledger.totals;
  return [
    ...shares.map(
      (s) =>
        `  ${s.agent.padEnd(8)} ${String(s.requests).padStart(3)} request(s)  ${s.inputTokens} in / ${s.outputTokens} out tokens  $${s.knownCostUsd.toFixed(4)}`,
    ),
    `  total: $${t.knownCostUsd.toFixed(4)}${t.costComplete ? "" : ` at least (no price for ${t.unknownModels.join(", ")})`}${t.estimated ? " — token counts estimated (no model was called)" : ""}`,
  ];
}

/** `git diff --stat`-like lines from a unified patch. */
export function diffStat(patch: string): string {
  const files = new Map<string, { add: number; del: number }>();
  let current: { add: number; del: number } | undefined;
  for (const line of patch.split("\n")) {
    const header = /^diff --git a\/(.+?) b\//.exec(line);
    if (header) {
      current = { add: 0, del: 0 };
      files.set(header[1] as string, current);
    } else if (current && line.startsWith("+") && !line.startsWith("+++")) current.add++;
    else if (current && line.startsWith("-") && !line.startsWith("---")) current.del++;
  }
  const rows = [...files].map(([f, c]) => ` ${f} | +${c.add} -${c.del}`);
  return [`Changes (${files.size} file(s)):`, ...rows].join("\n");
}

export function quitLines(start: AgentStart): string[] {
  const id = start.session.id;
  return [
    `Session ${id} saved. Continue it with: acilab agent --resume ${id} --repo ${start.workspace.repo}`,
  ];
}
