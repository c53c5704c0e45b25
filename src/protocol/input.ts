/** The request body of a run (WIRE §4.4, §4.5, §4.7). */
import * as t from "io-ts";
import { list, struct, withDefault } from "./codec";
import { Metadata } from "./common";
import { Message } from "./messages";
import { ResumeEntry } from "./outcomes";

/** A tool the client offers for this run; `parameters` is the JSON Schema of its arguments. */
export const Tool = struct("Tool", { name: t.string, description: t.string }, { parameters: t.unknown, metadata: Metadata });
export type Tool = t.TypeOf<typeof Tool>;

/** A named piece of ambient information for the run. */
export const Context = struct("Context", { description: t.string, value: t.string }, {});
export type Context = t.TypeOf<typeof Context>;

/**
 * What a client sends to run an agent. `tools` and `context` default to `[]` (1.0.0);
 * `state: null` reads as absent ("no state yet").
 */
export const RunAgentInput = struct(
  "RunAgentInput",
  {
    threadId: t.string,
    runId: t.string,
    messages: list(Message),
    tools: withDefault(list(Tool), []),
    context: withDefault(list(Context), []),
  },
  {
    parentRunId: t.string,
    state: t.unknown,
    forwardedProps: t.unknown,
    resume: list(ResumeEntry),
    protocolVersion: t.string,
  },
);
export type RunAgentInput = t.TypeOf<typeof RunAgentInput>;
