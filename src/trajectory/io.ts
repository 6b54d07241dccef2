import { appendFileSync, closeSync, existsSync, openSync, readFileSync } from "node:fs";
import type { TrajectoryRecord } from "./records.js";

/**
 * Appends one JSON line per record with a synchronous write, so a run that is killed (even with
 * SIGKILL) keeps every turn it finished: the data is in the kernel before the next turn starts.
 */
export class TrajectoryWriter {
  private readonly fd: number;

  constructor(readonly path: string) {
    this.fd = openSync(path, "a");
  }

  write(record: TrajectoryRecord): void {
    appendFileSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** A sink that keeps records in memory (tests, benchmarks). */
export class MemoryTrajectory {
  readonly records: TrajectoryRecord[] = [];
  write(record: TrajectoryRecord): void {
    this.records.push(record);
  }
}

export interface TrajectorySink {
  write(record: TrajectoryRecord): void;
}

/**
 * Read a trajectory. A torn last line (the process died mid-write) is dropped with a warning;
 * a broken line anywhere else is an error that names the line.
 */
export function readTrajectory(path: string): { records: TrajectoryRecord[]; warnings: string[] } {
  if (!existsSync(path))
    throw new Error(`trajectory ${path} does not exist; pass the trajectory.jsonl of a run`);
  const lines = readFileSync(path, "utf8").split("\n");
  const records: TrajectoryRecord[] = [];
  const warnings: string[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const value = JSON.parse(line) as TrajectoryRecord;
      if (typeof value !== "object" || value === null || typeof value.type !== "string") {
        throw new Error('not a trajectory record (no "type")');
      }
      records.push(value);
    } catch (err) {
      const isLast = lines.slice(i + 1).every((l) => l.trim() === "");
      const reason = err instanceof Error ? err.message : String(err);
      if (isLast)
        warnings.push(
          `${path}:${i + 1}: dropped an incomplete last line (${reason}); the run was probably killed`,
        );
      else throw new Error(`${path}:${i + 1}: broken JSONL (${reason}); fix or remove that line`);
    }
  });
  return { records, warnings };
}
