/** The task board's shared state as the pages read it (until the task-board example exports its spec). */
import * as t from "io-ts";
import { stateSpec } from "../../src/protocol/stateSpec";

const Task = t.type({ id: t.number, title: t.string, done: t.boolean });
export const Board = t.type({ tasks: t.array(Task) });
export type Board = t.TypeOf<typeof Board>;
export const boardSpec = stateSpec<Board>(Board, { tasks: [] });
