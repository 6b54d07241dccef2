import type { FrameRecord } from "../episode.js";

/**
 * Step → caption. Executed actions get the control they landed on; the environment saw one act per
 * step except for invalid calls, screenshots and clicks the gate refused, which never reached it.
 */
export function frameCaptions(
  frames: readonly FrameRecord[],
  labels: readonly string[],
): Map<number, string> {
  const out = new Map<number, string>();
  let next = 0;
  for (const f of frames) {
    const blocked = f.note?.match(/^blocked click on (.+?) \(matched/)?.[1];
    if (f.step === 0 || f.action.startsWith("invalid") || f.action === "screenshot")
      out.set(f.step, f.action);
    else if (blocked) out.set(f.step, `${f.action}: gate refused ${blocked}`);
    else {
      const label = labels[next++];
      out.set(f.step, label ? `${f.action} → ${label}` : f.action);
    }
  }
  return out;
}
