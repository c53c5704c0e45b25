// What an editor shows for the public types (issue 15, docs/architecture.md#protocol-layer): hovering `Event`, `Message`,
// `decodeEvent`, a narrowed event, `Update` or `RunAgentInput` prints a short, named type, and a
// wrong event literal is reported with the event's name, never with io-ts codec generics. Measured
// with TypeScript's language service, untruncated, against the sources and against the bundled
// declarations a consumer installs (dist/types, resolved as `agui-rx`).
import * as path from "node:path";
import { ensureBuilt, ROOT } from "../dist/ensureBuilt";
import { openProbe, type Probe } from "./quickInfo";

/** The target of the issue: a hover an editor can show whole. */
const MAX_HOVER = 2_000;
/** io-ts and codec generics that must never reach a hover or an error of a public type. */
const CODEC_GENERICS = /\b(StructCodec|StructType|StructOutput|TaggedUnionCodec|TaggedUnionType|TypeC|PartialC|LiteralC|StringC|UnknownRecordC)\b/;

const probeText = (root: string, client: string): string => `
import { decodeEvent, Event, RunAgentInput, type Message, type TextMessageContentEvent } from "${root}";
import type { Update } from "${client}";

declare const event: Event;
declare const message: Message;
declare const update: Update;
declare const input: RunAgentInput;
const decoded = decodeEvent(JSON.parse("{}"));
const validated = Event.decode(JSON.parse("{}"));
if (event.type === "TEXT_MESSAGE_CONTENT") console.log(event.delta);
const eventCodec = Event;
const inputCodec = RunAgentInput;

const wrongMember: Event = { type: "TEXT_MESSAGE_CONTENT", messageId: 1 };
const missingMember: Event = { type: "TEXT_MESSAGE_CONTENT", messageId: "m1" };
const wrongType: Event = { type: "TEXT_MESSAGE_CONTNT", messageId: "m1", delta: "Hi" };
const wrongDirect: TextMessageContentEvent = { type: "TEXT_MESSAGE_CONTENT", messageId: 1, delta: "Hi" };
const wrongMessage: Message = { id: "u1", role: "user" };
export { message, update, input, decoded, validated, eventCodec, inputCodec, wrongMember, missingMember, wrongType, wrongDirect, wrongMessage };
`;

/** A hover is short and speaks in names. */
function expectReadable(text: string): void {
  expect(text.length).toBeLessThanOrEqual(MAX_HOVER);
  expect(text).not.toMatch(CODEC_GENERICS);
}

describe.each([
  [
    "the sources",
    () => openProbe(path.join(ROOT, "test/types/hover-probe.ts"), path.join(ROOT, "tsconfig.json"), probeText("../../src/index", "../../src/client/index")),
  ],
  [
    "the bundled declarations (dist/types, as a consumer resolves agui-rx)",
    () => {
      ensureBuilt();
      return openProbe(path.join(ROOT, "hover-probe.ts"), path.join(ROOT, "tsconfig.json"), probeText("agui-rx", "agui-rx/client"));
    },
  ],
])("hovers and errors over %s", (_label, open: () => Probe) => {
  let probe: Probe;
  beforeAll(() => {
    probe = open();
  }, 300_000);

  it("shows `Event` as the union of the 36 named events", () => {
    const text = probe.hover(": Event;", { at: 2 });
    expectReadable(text);
    expect(text).toContain("type Event = RunStartedEvent | RunFinishedEvent | RunErrorEvent | StepStartedEvent");
    expect(text).toContain("| ThinkingTextMessageEndEvent");
    expect(probe.hover("event: Event")).toBe("const event: Event");
  }, 120_000);

  it("shows `Message` as the union of the seven role interfaces", () => {
    const text = probe.hover(": Message;", { at: 2 });
    expectReadable(text);
    expect(text).toContain(
      "type Message = DeveloperMessage | SystemMessage | AssistantMessage | UserMessage | ToolMessage | ActivityMessage | ReasoningMessage",
    );
    expect(probe.hover("message: Message")).toBe("const message: Message");
  });

  it("shows what `decodeEvent` and a codec's `decode` return as `Event`", () => {
    const signature = probe.hover("decodeEvent(JSON");
    expectReadable(signature);
    expect(signature).toContain("decodeEvent(json: unknown, options?: DecodeEventOptions): Either<DecodeError, Event>");
    expect(probe.hover("decoded =")).toBe("const decoded: Either<DecodeError, Event>");
    expect(probe.hover("validated =")).toBe("const validated: Validation<Event>");
  });

  it("shows a narrowed event as its interface", () => {
    expect(probe.hover("event.delta")).toBe("const event: TextMessageContentEvent");
  });

  it("shows `Update` and `RunAgentInput` by name", () => {
    const updateType = probe.hover(": Update;", { at: 2 });
    expectReadable(updateType);
    expect(updateType).toContain("MessageUpdate | MessagesUpdate | StateUpdate<S>");
    expect(probe.hover("update: Update")).toBe("const update: Update");
    const inputType = probe.hover(": RunAgentInput;", { at: 2 });
    expectReadable(inputType);
    expect(inputType).toContain("interface RunAgentInput");
    expect(probe.hover("input: RunAgentInput")).toBe("const input: RunAgentInput");
  });

  it("shows the codecs themselves by the name of what they decode", () => {
    expect(probe.hover("eventCodec =")).toBe("const eventCodec: NamedUnionCodec<Event>");
    expect(probe.hover("inputCodec =")).toBe("const inputCodec: NamedStructCodec<RunAgentInput>");
  });

  it("reports a wrong event literal with the event's name, never with codec types", () => {
    const errors = probe.errors();
    expect(errors.map((error) => error.line.split(":")[0])).toEqual([
      "const wrongMember",
      "const missingMember",
      "const wrongType",
      "const wrongDirect",
      "const wrongMessage",
    ]);
    for (const error of errors) expectReadable(error.text);
    const [wrongMember, missingMember, wrongType, wrongDirect, wrongMessage] = errors.map((error) => error.text);
    // Against a union TypeScript names no type for a wrong member (hand-written interfaces alike);
    // it points at `messageId` with the member's type.
    expect(wrongMember).toBe("Type 'number' is not assignable to type 'string'.");
    expect(missingMember).toContain("is not assignable to type 'Event'.");
    expect(missingMember).toContain("is not assignable to type 'TextMessageContentEvent'.");
    expect(missingMember).toContain("Property 'delta' is missing");
    expect(wrongType).toContain(`Did you mean '"TEXT_MESSAGE_CONTENT"'?`);
    expect(wrongType).toContain("declared here on type 'Event'");
    expect(wrongDirect).toContain("The expected type comes from property 'messageId' which is declared here on type 'TextMessageContentEvent'");
    expect(wrongMessage).toContain("is not assignable to type 'Message'.");
    expect(wrongMessage).toContain("is not assignable to type 'UserMessage'.");
  });
});
