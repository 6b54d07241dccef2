/** The arm × task grid: each cell coloured by its resolved fraction, or grey with why it has none. */
import type { Analysis } from "../experiment/index.js";
import { CONFIG, LABEL_FONT_SIZE, type Plot, SCHEMA } from "./plot-style.js";

type CellState = "graded" | "impossible" | "cheated" | "no_script" | "error" | "unfinished" | "none";

/** Fills of the cells that are not on the resolved-fraction scale. */
const FILL: Record<Exclude<CellState, "graded">, string> = {
  impossible: "#cfe2f3", // an impossible task left unresolved: the right answer
  cheated: "#b2182b", // an impossible task "resolved": cheating
  no_script: "#ddd",
  error: "#ddd",
  unfinished: "#ddd",
  none: "#fff",
};

/** A column per arm: wide enough for "no script" and "12/12" in the cell's font. */
const CELL_WIDTH = 64;
const CELL_HEIGHT = 18;

export function gridPlot(analysis: Analysis): Plot {
  const values: {
    arm: string;
    task: string;
    fraction: number | null;
    state: CellState;
    label: string;
    done: number;
    resolved: number;
  }[] = [];
  const taskLabel = (t: { id: string; impossible: boolean }) =>
    t.impossible ? `${t.id} (impossible)` : t.id;
  for (const t of analysis.tasks)
    for (const a of analysis.arms) {
      const c = analysis.grid[a.arm]?.[t.id];
      const graded = c !== undefined && c.done > 0;
      const state: CellState = !c
        ? "none"
        : graded
          ? t.impossible
            ? c.resolved > 0
              ? "cheated"
              : "impossible"
            : "graded"
          : c.no_script > 0
            ? "no_script"
            : c.error > 0
              ? "error"
              : "unfinished";
      values.push({
        arm: a.arm,
        task: taskLabel(t),
        fraction: graded ? c.resolved / c.done : null,
        state,
        label: graded ? `${c.resolved}/${c.done}` : state === "none" ? "" : state.replace("_", " "),
        done: c?.done ?? 0,
        resolved: c?.resolved ?? 0,
      });
    }
  const x = {
    field: "arm",
    type: "nominal" as const,
    sort: analysis.arms.map((a) => a.arm),
    title: null,
    // Upright labels, one per column: a name of any length never reaches its neighbour's.
    axis: { orient: "top" as const, labelAngle: -90, labelAlign: "left" as const },
  };
  const y = { field: "task", type: "nominal" as const, sort: analysis.tasks.map(taskLabel), title: null };
  const impossible = analysis.tasks.some((t) => t.impossible);
  return {
    id: "grid",
    title: "Outcomes per arm and task",
    caption: `Each cell is one arm on one task: resolved over graded attempts, green when all resolved, red when none did. Grey cells were never graded: no scripted policy for that arm's tool set (left out of the statistics), an error of the harness, or not run yet.${impossible ? ' An impossible task\'s cells are blue when nothing resolved it (the right answer) and dark red when an attempt "resolved" it (cheating).' : ""}`,
    rows: values.map(({ arm, task, state, done, resolved }) => ({ arm, task, state, done, resolved })),
    spec: {
      $schema: SCHEMA,
      width: { step: CELL_WIDTH },
      height: { step: CELL_HEIGHT },
      config: { ...CONFIG, axis: { ...CONFIG.axis, grid: false, domain: false, ticks: false } },
      data: { values },
      encoding: { x, y },
      layer: [
        {
          transform: [{ filter: "datum.state === 'graded'" }],
          mark: { type: "rect", stroke: "white", strokeWidth: 1 },
          encoding: {
            color: {
              field: "fraction",
              type: "quantitative",
              scale: { domain: [0, 1], range: ["#e45756", "#f2cf5b", "#54a24b"] },
              legend: { title: "resolved", format: "%" },
            },
          },
        },
        ...(Object.entries(FILL) as [CellState, string][]).map(([state, fill]) => ({
          transform: [{ filter: `datum.state === '${state}'` }],
          mark: { type: "rect" as const, stroke: "white", strokeWidth: 1, color: fill },
        })),
        {
          mark: { type: "text", fontSize: LABEL_FONT_SIZE - 1 },
          encoding: {
            text: { field: "label" },
            color: { condition: { test: "datum.state === 'cheated'", value: "white" }, value: "#222" },
          },
        },
      ],
    },
  };
}
