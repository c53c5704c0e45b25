// The task-board example's building blocks, for the web pages and end-to-end tests.
export { Board, Task, boardSpec, summarize, nextTaskId } from "./board";
export { plan, HELP, type Command } from "./planner";
export { createTaskBoardAgent, taskBoardAgent, CLEAR_REASON, type TaskBoardOptions } from "./agent";
export { countAloud, timerPace, type Pace } from "./counting";
export { steppedPace, type SteppedPace } from "./steppedPace";
export { createTaskBoardHandler, createTaskBoardServer, type TaskBoardServerOptions } from "./server";
export { bearerIdentity, bearerThreadAccess, threadIdFor, ownerOf } from "./access";
export { GET_LOCAL_TIME, CONFIRM_DELETE, LocalTime, ConfirmDeleteArgs, ConfirmDeleteAnswer } from "./clientTools";
