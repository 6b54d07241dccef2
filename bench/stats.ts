export interface BenchRow {
  name: string;
  n: number;
  medianMs: number;
  p95Ms: number;
  /** The row's target, when it has one (printed, never asserted). */
  targetMs: number | undefined;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

export function summarise(name: string, samples: readonly number[], targetMs?: number): BenchRow {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, n: sorted.length, medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95), targetMs };
}
