import type { z } from "zod";
import type { Sandbox } from "../sandbox/types.js";

/** What a tool does to the world; permissions and read-only subagents filter on this. */
export type ToolKind = "read" | "edit" | "execute" | "control";

/** Why a tool call failed, phrased for the model in `output`; the kind is for statistics. */
export type ToolErrorKind =
  | "unknown_tool"
  | "invalid_arguments"
  | "outside_workspace"
  | "not_found"
  | "is_directory"
  | "already_exists"
  | "no_match"
  | "multiple_matches"
  | "out_of_range"
  | "no_file_open"
  | "nothing_to_undo"
  | "lint_failed"
  | "too_many_results"
  | "timeout"
  | "command_failed"
  | "no_tests"
  | "permission_denied"
  | "no_space";

/** A tool result has two faces: what the model reads and (optionally) what a person sees. */
export interface ToolResult {
  output: string;
  display?: string;
  error?: ToolErrorKind;
  /** Set by `submit`: the loop stops with reason "submitted". */
  submitted?: boolean;
  /** Workspace-relative paths this call wrote. */
  changedFiles?: string[];
  /**
   * The result as a value, for a program that called the tool (code actions): a tool with structured
   * results sets it; otherwise the program receives `output`. JSON tool calls always read `output`.
   */
  data?: unknown;
  /** Calls a code action made from inside its program, in order (for the trajectory and counts). */
  calls?: NestedCall[];
}

/** One tool call made by a program (code actions): what it asked, what it got, how long it took. */
export interface NestedCall {
  tool: string;
  input: unknown;
  /** What the tool returned for a model to read (`output`), or why the call was refused. */
  output: string;
  error: ToolErrorKind | null;
  duration_ms: number;
}

/** A permission decision, made at the moment of each call (JSON or from inside a program). */
export type PermissionDecision = { allow: true } | { allow: false; reason: string };

/**
 * Asked before every tool call runs, with the validated input. A denial becomes the observation of a
 * JSON call, and an exception (PermissionDenied) inside a program; earlier calls stay done.
 */
export type PermissionHook = (
  tool: string,
  input: unknown,
) => PermissionDecision | Promise<PermissionDecision>;

/** Per-run editor state: the file the viewer has open and the undo history of each file. */
export interface EditorState {
  openFile: string | undefined;
  /** First line (1-based) of the viewer's window in the open file. */
  windowStart: number;
  /** Previous contents per workspace-relative path, newest last; `null` = the file did not exist. */
  undo: Map<string, Array<string | null>>;
}

export function newEditorState(): EditorState {
  return { openFile: undefined, windowStart: 1, undo: new Map() };
}

export interface ToolContext {
  /** Absolute, symlink-free path of the workspace root on the host. */
  root: string;
  /**
   * The repository the host's own git reads for this workspace (the snapshot's read-only .git), with
   * `root` as its work tree. The workspace's .git is the sandboxed program's to rewrite, config and
   * all, so host-side git must not trust it. Absent: git uses the workspace's own (tests, tools tasks).
   */
  gitDir?: string;
  sandbox: Sandbox;
  editor: EditorState;
  /** The task's test command (argv), run by `run_tests`; undefined when the task has none. */
  testCommand: string[] | undefined;
  /** Per-command wall clock for shell, run_tests and code actions. */
  commandTimeoutMs: number;
  signal?: AbortSignal;
  /** Checked at the moment of every call; absent = every call is allowed. */
  permission?: PermissionHook;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Model-facing prose; long descriptions live in a sibling .txt next to the tool's code. */
  description: string;
  schema: S;
  kind: ToolKind;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Helper so each tool file gets its input type inferred from its schema. */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}
