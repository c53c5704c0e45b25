/**
 * The request body of a run (docs/wire.md#4.4, docs/wire.md#4.5, docs/wire.md#4.7). As in `events.ts`, each type is `t.TypeOf` of
 * its codec with a named interface as its face (the module-private `<Name>Codec` is the codec as
 * built; the codec exported as `<Name>` decodes the interface).
 */
import * as t from "io-ts";
import { list, struct, withDefault } from "./codec";
import type { NamedStructCodec } from "./namedCodec";
import { Metadata } from "./common";
import { Message } from "./messages";
import { ResumeEntry } from "./outcomes";

const ToolCodec = /* @__PURE__ */ struct("Tool", { name: t.string, description: t.string }, { parameters: t.unknown, metadata: Metadata });
/**
 * A tool the client offers for this run; `parameters` is the JSON Schema of its arguments.
 *
 * @example
 * const tool: Tool = { name: "search", description: "Search the web", parameters: { type: "object", properties: {} } };
 */
export interface Tool extends t.TypeOf<typeof ToolCodec> {}
export const Tool: NamedStructCodec<Tool> = ToolCodec;

const ContextCodec = /* @__PURE__ */ struct("Context", { description: t.string, value: t.string }, {});
/**
 * A named piece of ambient information for the run.
 *
 * @example
 * const context: Context = { description: "the user's time zone", value: "Europe/Paris" };
 */
export interface Context extends t.TypeOf<typeof ContextCodec> {}
export const Context: NamedStructCodec<Context> = ContextCodec;

const RunAgentInputCodec = /* @__PURE__ */ struct(
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
/**
 * What a client sends to run an agent. `tools` and `context` default to `[]` (1.0.0);
 * `state: null` reads as absent ("no state yet").
 *
 * @example
 * const input: RunAgentInput = { threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "Hi" }], tools: [], context: [] };
 */
export interface RunAgentInput extends t.TypeOf<typeof RunAgentInputCodec> {}
export const RunAgentInput: NamedStructCodec<RunAgentInput> = RunAgentInputCodec;
