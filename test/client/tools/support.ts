/** Shared helpers of the client tool tests: real JSON Schema validators (Ajv, draft-07 and 2020-12) and a session stand-in. */
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import * as E from "fp-ts/Either";
import type * as t from "io-ts";
import type { ToolSession } from "../../../src/client/tools/clientTool";
import type { Message } from "../../../src/protocol/messages";

// Strict mode: an unknown keyword or a questionable type combination in a derived schema fails
// compilation, so the schemas are clean for strict consumers too.
const draft07 = new Ajv({ strict: true, allowUnionTypes: true });
const draft2020 = new Ajv2020({ strict: true, allowUnionTypes: true });

/** Compiles `schema` with both drafts and returns one validator that requires them to agree. */
export function compile(schema: object): (value: unknown) => boolean {
  const a = draft07.compile(schema);
  const b = draft2020.compile(schema);
  return (value) => {
    const first = a(value);
    const second = b(value);
    if (first !== second) throw new Error(`draft-07 and 2020-12 disagree on ${JSON.stringify(value)}`);
    return first;
  };
}

/** Whether `codec` decodes `value`. */
export function decodes(codec: t.Decoder<unknown, unknown>, value: unknown): boolean {
  return E.isRight(codec.decode(value));
}

/** A `ToolSession` over fixed messages and state. */
export function toolSession(messages: readonly Message[] = [], state: unknown = {}): ToolSession {
  return { threadId: "thread-1", messages, rawState: state, state };
}
