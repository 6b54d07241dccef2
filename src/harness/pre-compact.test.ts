import { describe, expect, it } from "vitest";
import { preCompactHook } from "./pre-compact.js";
import type { RunHooks } from "./types.js";

describe("preCompactHook", () => {
  it("raises PreCompact with Claude Code's fields and reports, never obeys, a block", async () => {
    const seen: Array<[string, Record<string, unknown>]> = [];
    const hooks: RunHooks = async (event, payload) => {
      seen.push([event, payload]);
      return { block: "not now", errors: ["hook 2 timed out"] };
    };
    const notices: string[] = [];
    const preCompact = preCompactHook(
      hooks,
      () => ({ session_id: "s1" }),
      (m) => notices.push(m),
    );
    await preCompact({ trigger: "auto", tokens: 9000 });
    expect(seen).toEqual([
      [
        "PreCompact",
        { session_id: "s1", hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" },
      ],
    ]);
    expect(notices).toEqual(["hook 2 timed out", "PreCompact hook (cannot stop compaction): not now"]);
  });
});
