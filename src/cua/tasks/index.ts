export type { Reply, Route, RouteRequest, TaskApp } from "./app/server.js";
export { frameCaptions } from "./captions.js";
export { describeCuaTask, getCuaTask, listCuaTasks, startTaskEpisode, type TaskEpisode } from "./catalog.js";
export { contactSheet, type SheetFrame } from "./contact-sheet.js";
export { LabelledEnvironment } from "./labelled-env.js";
export { cuaScriptedPolicy } from "./policy.js";
export { builtinStage } from "./stage.js";
export type { AppState, CuaTask, Grade, TaskDefence } from "./types.js";
