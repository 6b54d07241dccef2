import type { CuaStage } from "../stage.js";
import { startTaskEpisode } from "./catalog.js";
import type { CuaTask } from "./types.js";

/**
 * A built-in task as a run's stage: a fresh Northwind app per episode, graded on its server-side
 * state after the browser has closed (the state is final, nothing can still be in flight).
 */
export function builtinStage(task: CuaTask): CuaStage {
  return {
    id: task.id,
    observe: task.observe,
    async open() {
      const episode = await startTaskEpisode(task);
      return {
        task: { id: task.id, instruction: task.instruction, start: episode.start },
        loaded: false,
        beforeClose: async () => undefined,
        grade: () => task.grade(episode.app.state),
        keyLeaks: () => [...episode.app.state.keyLeaks],
        close: () => episode.app.close(),
      };
    },
  };
}
