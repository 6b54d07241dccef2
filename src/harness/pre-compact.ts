import type { CompactionOptions } from "../loop/index.js";
import type { RunHooks } from "./types.js";

/**
 * The loop's `preCompact` as Claude Code's PreCompact hook event: the session's common fields plus
 * `hook_event_name`, `trigger` (`auto` / `manual`) and `custom_instructions` (always "": acilab's
 * `/compact` takes none). A PreCompact hook cannot stop compaction (Claude Code shows its stderr to
 * the user only), so a block and any hook errors go to `notice`, never to the model.
 */
export function preCompactHook(
  hooks: RunHooks,
  common: () => Record<string, unknown>,
  notice: (message: string) => void = () => {},
): NonNullable<CompactionOptions["preCompact"]> {
  return async ({ trigger }) => {
    const out = await hooks("PreCompact", {
      ...common(),
      hook_event_name: "PreCompact",
      trigger,
      custom_instructions: "",
    });
    for (const error of out.errors) notice(error);
    if (out.block !== undefined) notice(`PreCompact hook (cannot stop compaction): ${out.block}`);
  };
}
