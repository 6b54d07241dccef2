/**
 * The sandbox backends, named once. Every place that takes a backend (CLI flags, experiment arms,
 * jobs, workers) checks against this list; "auto" is a choice, not a backend.
 */

/** "runsc" (gVisor) is the strongest backend and the slowest to start: chosen only by name, never by "auto". */
export const BACKEND_CHOICES = ["auto", "bwrap", "process", "runsc"] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];
/** A backend that runs commands: what "auto" becomes. */
export type BackendName = Exclude<BackendChoice, "auto">;

export function isBackendChoice(value: string): value is BackendChoice {
  return (BACKEND_CHOICES as readonly string[]).includes(value);
}

export function isBackendName(value: string): value is BackendName {
  return value !== "auto" && isBackendChoice(value);
}

/** `ACILAB_SANDBOX=bwrap|process|runsc|auto` overrides the default (auto: bwrap where it works). */
export function defaultBackend(env: NodeJS.ProcessEnv = process.env): BackendChoice {
  const value = env.ACILAB_SANDBOX;
  if (value === undefined || value === "") return "auto";
  if (isBackendChoice(value)) return value;
  throw new Error(
    `ACILAB_SANDBOX="${value}" is not a sandbox backend; use one of ${BACKEND_CHOICES.join(", ")}`,
  );
}

/** A backend's name as a person wrote it; absent: the default (ACILAB_SANDBOX, else auto). */
export function parseBackend(value: string | undefined): BackendChoice {
  if (value === undefined) return defaultBackend();
  if (isBackendChoice(value)) return value;
  throw new Error(`--sandbox "${value}" is not a sandbox backend; use one of ${BACKEND_CHOICES.join(", ")}`);
}
