import type { z } from "zod";
import type { Sandbox } from "../sandbox/index.js";

/**
 * What a tool does to the world; permissions and read-only subagents filter on this. "computer" acts
 * on a screen (computer use: clicks, keys, scrolls); "control" steers the run (submit, done).
 */
export type ToolKind = "read" | "edit" | "execute" | "control" | "computer";

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
  | "no_space"
  /** Computer use: a point outside the screenshot the model was shown. */
  | "outside_screen";

/** What a tool call gave back: the text the model reads, and what the harness needs to know. */
export interface ToolResult {
  output: string;
  error?: ToolErrorKind;
  /** Set by `submit` (and computer use's `done`): the loop stops with reason "submitted". */
  submitted?: boolean;
  /** With `submitted`: the agent's own one-line summary, which becomes the run's detail. */
  summary?: string;
  /** Workspace-relative paths this call wrote. */
  changedFiles?: string[];
  /**
   * For a person, not the model: the call's change as a unified diff (the file tools set it). The
   * trajectory keeps it and the inspector shows each edit as a diff of its step.
   */
  diff?: string;
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

/** A point on the screen, in screen pixels. */
export interface ScreenPoint {
  x: number;
  y: number;
}

/**
 * What a call would act on, as the tool's `resolve` step worked it out (computer use: what a click
 * lands on). A hook that guards against acts on named things reads it; coding hooks ignore it.
 */
export type ToolTarget =
  /**
   * A control the call would activate: its role and name as a user reads them, every other text that
   * names it (`label`: aria-label, title, value, its form's label and action), and how the call reaches
   * it (`via`: "press", "focused", "under a see-through element"; absent for a plain hit).
   */
  | {
      kind: "element";
      role: string;
      name: string;
      states: string[];
      point?: ScreenPoint;
      label?: string;
      via?: string;
    }
  /** What the call would act on could not be read (a failed capture, a cross-origin frame): refuse, don't guess. */
  | { kind: "unreadable"; reason: string; point?: ScreenPoint }
  /** A call that can activate more than one thing (a drag's two ends, a control under an overlay): judge each. */
  | { kind: "several"; targets: ToolTarget[] };

/**
 * Asked before every tool call runs, with the validated (and, where the tool resolves it, resolved)
 * input and what the call would act on. A denial becomes the observation of a JSON call, and an
 * exception (PermissionDenied) inside a program; earlier calls stay done.
 */
export type PermissionHook = (
  tool: string,
  input: unknown,
  target?: ToolTarget,
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

/** What every tool context carries, whatever the tool acts on. */
export interface BaseToolContext {
  signal?: AbortSignal;
  /**
   * `Date.now()` at which the run's wall clock runs out: a command still running then is killed by
   * its sandbox timeout (deadline.ts). The loop sets it for the length of a run; absent = no deadline.
   */
  deadline?: number;
  /** Checked at the moment of every call; absent = every call is allowed. */
  permission?: PermissionHook;
}

/** The context of the workspace tools (coding and tool tasks): the checkout, its sandbox, the editor. */
export interface ToolContext extends BaseToolContext {
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
}

/** What `resolve` made of a valid input: what will actually run, and what it acts on. */
export type Resolution<R> = { ok: true; input: R; target?: ToolTarget } | { ok: false; result: ToolResult };

/**
 * A tool: its declaration (name, prose, input schema, kind) and how it runs in a context `C`. `R` is
 * the input `execute` receives: the validated input itself, or what `resolve` turned it into.
 */
export interface ToolDefinition<
  S extends z.ZodType = z.ZodType,
  C extends BaseToolContext = ToolContext,
  R = z.infer<S>,
> {
  name: string;
  /** Model-facing prose; long descriptions live in a sibling .txt next to the tool's code. */
  description: string;
  schema: S;
  kind: ToolKind;
  /**
   * After validation, before the permission check: what the call will really do and to what (a click's
   * screen point and the element under it), or the error observation when it cannot be done. Without
   * it the validated input is what runs. Method syntax on purpose: a registry holds tools of any `R`.
   */
  resolve?(input: z.infer<S>, ctx: C): Promise<Resolution<R>>;
  execute(input: R, ctx: C): Promise<ToolResult>;
}

/** Helper so each tool file gets its input type inferred from its schema. */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}
