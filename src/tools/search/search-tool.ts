/**
 * The skeleton the five search tools share: a read-only tool whose call checks its arguments, collects
 * results through rg (or the index), and answers in one of three ways — a failure, "too many, narrow
 * the search" above the cap, or "no matches" / the tool's own listing. Each tool file holds only its
 * arguments, its rg query and how it lists what it found.
 */
import type { z } from "zod";
import { defineTool, type ToolContext, type ToolResult } from "../types.js";
import type { Collected, RgQuery, SearchRun } from "./collect.js";
import type { SearchOptions } from "./limits.js";
import { noMatches, tooMany } from "./results.js";
import type { Scope } from "./scope.js";

/** A call whose arguments hold up: where it searches and how to collect the results. */
export type SearchPlan<T> =
  | {
      ok: true;
      /** How observations name the searched path. */
      shown: string;
      /** Nothing below the scope can match (a glob's directory is missing): "no matches" without rg. */
      nothingCanMatch?: boolean;
      collect: (run: SearchRun) => Promise<Collected<T>>;
    }
  | { ok: false; result: ToolResult };

export interface SearchToolSpec<S extends z.ZodType, T> {
  name: string;
  /** Read by the tool's module from its sibling .txt. */
  description: string;
  schema: S;
  /** How observations name the query, e.g. `regex "foo("`. */
  query: (input: z.infer<S>) => string;
  /** Concrete ways to narrow this tool's query, finishing "Narrow the search: …". */
  narrowing: string;
  /** Checks the arguments and resolves the path; a failed plan is the observation. */
  plan: (input: z.infer<S>, ctx: ToolContext) => SearchPlan<T>;
  /** Above the cap: how the count reads (`12 matching lines in 3 files`) and what the cap counts. */
  tooMany: { counted: (total: number, files: number) => string; unit: string };
  /** The observation for one or more results. */
  list: (items: T[], notes: string[], input: z.infer<S>, shown: string) => string;
}

export function defineSearchTool<S extends z.ZodType, T>(options: SearchOptions, spec: SearchToolSpec<S, T>) {
  return defineTool({
    name: spec.name,
    description: spec.description,
    schema: spec.schema,
    kind: "read",
    async execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult> {
      const plan = spec.plan(input, ctx);
      if (!plan.ok) return plan.result;
      const run: SearchRun = {
        options,
        root: ctx.root,
        signal: ctx.signal,
        query: spec.query(input),
        narrowing: spec.narrowing,
      };
      if (plan.nothingCanMatch === true) return noMatches(run, plan.shown, []);
      const collected = await plan.collect(run);
      switch (collected.kind) {
        case "failed":
          return collected.result;
        case "too_many":
          return tooMany(run, plan.shown, collected, spec.tooMany.counted, spec.tooMany.unit);
        case "ok":
          if (collected.items.length === 0) return noMatches(run, plan.shown, collected.notes);
          return { output: spec.list(collected.items, collected.notes, input, plan.shown) };
      }
    },
  });
}

/** search_dir and search_file look for literal text: -F, so "foo(" or "a.b" need no escaping. */
export function literalQuery(term: string, scope: Scope): RgQuery {
  return { flags: ["--fixed-strings"], tail: ["--", term, scope.arg] };
}
