import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STOP_REASONS } from "../loop/index.js";
import type { CodingRunResult } from "./coding.js";
import type { CuaRunResult } from "./cua.js";
import { CORE_FIELDS, type GradeCore, type ResultCore, type TaskKind } from "./result.js";
import type { ToolsRunResult } from "./tools.js";

/*
 * docs/trajectory.md documents result.json field by field. These lists are checked against the types
 * at compile time (each must name every key of its type, and nothing else), and the doc's tables
 * against the lists here: a field added to a type without a line in the doc fails `make test`.
 */
type Exactly<T, L extends readonly PropertyKey[]> = [
  Exclude<keyof T, L[number]>,
  Exclude<L[number], keyof T>,
] extends [never, never]
  ? L
  : { missing: Exclude<keyof T, L[number]>; unknown: Exclude<L[number], keyof T> };

type Core = ResultCore<TaskKind, GradeCore>;
const CORE = CORE_FIELDS;
const CODING = [
  "tools",
  "action_format",
  "history",
  "sandbox",
  "sandbox_warning",
  "network",
  "rules",
  "patch_lines",
  "workspace",
  "harness",
] as const;
const TOOLS = [
  "action_format",
  "sandbox",
  "sandbox_warning",
  "network",
  "tool_calls",
  "tool_calls_by_name",
] as const;
const CUA = [
  "observe",
  "resolution",
  "model_image",
  "blocked",
  "requests_refused",
  "egress_refused",
  "sandbox_warning",
  "key_leaks",
  "downloads",
  "page_events",
  "frames",
  "contact_sheet",
  "timing",
] as const;

// Compile-time: each list is exactly its type's keys.
const _core: Exactly<Core, typeof CORE> = CORE;
const _coding: Exactly<Omit<CodingRunResult, keyof Core>, typeof CODING> = CODING;
const _tools: Exactly<Omit<ToolsRunResult, keyof Core>, typeof TOOLS> = TOOLS;
const _cua: Exactly<Omit<CuaRunResult, keyof Core>, typeof CUA> = CUA;
void [_core, _coding, _tools, _cua];

const doc = readFileSync(new URL("../../docs/trajectory.md", import.meta.url), "utf8");

/** The first-column names of the table under `### heading` (up to the next heading). */
function tableFields(heading: string): string[] {
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/trajectory.md has no "${heading}" section`);
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(/\n#{2,3} /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1] as string);
}

describe("docs/trajectory.md documents result.json exactly", () => {
  it.each([
    ["### Every kind", CORE],
    ["### coding", CODING],
    ["### tools", TOOLS],
    ["### cua", CUA],
  ] as const)("%s: one row per field, in the order result.json writes them", (heading, fields) => {
    expect(tableFields(heading)).toEqual([...fields]);
  });

  it("lists every stop reason", () => {
    expect(tableFields("## Stop reasons")).toEqual([...STOP_REASONS]);
  });
});
