/** The run's client-provided tools (`ctx.tools`, JSON Schema) as AI SDK tools without `execute` (docs/ai.md#model-agents, frontend tools). */
import { jsonSchema, type JSONSchema7, type Tool as SdkTool, type ToolSet } from "ai";
import type { Tool } from "../protocol/input";
import { AgentError } from "../server/AgentError";
import { INVALID_MESSAGES_CODE } from "./contentParts";

/** The schema of a client tool that declares no parameters: an object with no properties. */
const NO_PARAMETERS: JSONSchema7 = { type: "object", properties: {} };

/**
 * One SDK tool per client tool, with its description and its JSON Schema as the input schema
 * and no `execute`: when the model calls one, `streamText` stops after that step and the call
 * stays without a result, which `streamToRun` reports as `pendingToolCallIds` for the client to
 * run. A tool without `parameters` takes an empty object. `parameters` that is not a JSON object
 * throws an `AgentError` coded `INVALID_MESSAGES` naming the tool.
 *
 * @example
 * streamText({ model, messages, tools: { ...clientTools(ctx.tools), ...serverTools } });
 */
export function clientTools(tools: readonly Tool[]): ToolSet {
  const set: ToolSet = {};
  for (const offered of tools) {
    const definition: SdkTool = { description: offered.description, inputSchema: jsonSchema(schemaOf(offered)) };
    set[offered.name] = definition;
  }
  return set;
}

function schemaOf(offered: Tool): JSONSchema7 {
  const { parameters } = offered;
  if (parameters === undefined || parameters === null) return NO_PARAMETERS;
  if (!isSchemaObject(parameters)) {
    const got = Array.isArray(parameters) ? "an array" : JSON.stringify(parameters);
    throw new AgentError(`tool "${offered.name}": expected its parameters to be a JSON Schema object, but got ${got}`, INVALID_MESSAGES_CODE);
  }
  return parameters;
}

/**
 * A codec-boundary guard: the client's `parameters` arrived as JSON, and the SDK takes any JSON
 * object as a JSON Schema (the provider validates the schema itself), so an object is all that is
 * checked here.
 */
function isSchemaObject(value: unknown): value is JSONSchema7 {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
