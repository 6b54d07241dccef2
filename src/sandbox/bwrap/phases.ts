/**
 * Timestamps of the steps of a sandbox's life (cgroup made, wrapper started, bwrap cloned, program
 * exited, cgroup swept…), for the benchmark's breakdown. A no-op unless someone listens: one property
 * read per step.
 */
export type PhaseListener = (phase: string, at: number) => void;

let listener: PhaseListener | undefined;

/** Listen to every sandbox's phases in this process (undefined stops). The benchmark's hook. */
export function onPhase(l: PhaseListener | undefined): void {
  listener = l;
}

export function phase(name: string): void {
  listener?.(name, performance.now());
}
