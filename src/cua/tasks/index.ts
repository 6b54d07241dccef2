export type { Reply, Route, RouteRequest, TaskApp } from "./app/server.js";
export { describeCuaTask, getCuaTask, listCuaTasks, startTaskEpisode, type TaskEpisode } from "./catalog.js";
export { contactSheet, type SheetFrame } from "./contact-sheet.js";
export { cuaPolicy } from "./policy.js";
export { type CuaTaskResult, type CuaTaskRunOptions, runCuaTask } from "./run.js";
export type { AppState, CuaTask, Grade, TaskDefence } from "./types.js";
