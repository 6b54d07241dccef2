/** What a command gets to stop cleanly: a signal to pass down, and a way to stop listening. */
export interface Interrupt {
  signal: AbortSignal;
  dispose: () => void;
}

/**
 * The first Ctrl-C (or SIGTERM) aborts `signal` so the command can stop and keep what it did, after
 * `say` tells the person what happens now; a second one exits at once with 130.
 */
export function interruptSignal(
  say: (name: NodeJS.Signals) => void = (name) =>
    process.stderr.write(
      `\nacilab: ${name} received — stopping the run and saving what it did (again to quit now)\n`,
    ),
): Interrupt {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    say(name);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
