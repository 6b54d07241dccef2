import { realpathSync } from "node:fs";
import type { Sandbox } from "../../sandbox/index.js";
import { newEditorState, type ToolContext } from "../types.js";

/**
 * A ToolContext for running the file tools on their own (tests, benchmarks): the file tools never use
 * the sandbox, so its exec refuses loudly instead of pretending to run anything.
 */
export function fileToolContext(workspace: string): ToolContext {
  const root = realpathSync(workspace);
  const sandbox: Sandbox = {
    backend: "none",
    workspace: root,
    exec: () =>
      Promise.reject(new Error("fileToolContext has no sandbox: the file tools must not run commands")),
    close: () => Promise.resolve(),
    networkLog: () => [],
  };
  return { root, sandbox, editor: newEditorState(), testCommand: undefined, commandTimeoutMs: 30_000 };
}
