/** The inspector model: frames in, events with findings in place, grouping, state before and after, the cap, the trace id. */
import { Inspector } from "../../../src/client/inspector/Inspector";
import { groupEvents, isInspectorGroup, type InspectorGroup } from "../../../src/client/inspector/groupEvents";
import { messageTree } from "../../../src/client/inspector/messageTree";
import { stateDiffOf } from "../../../src/client/inspector/stateDiffOf";
import { SseBlockSplitter } from "../../../src/client/inspector/SseBlockSplitter";
import { traceIdOf, traceLinkOf } from "../../../src/client/inspector/traceLink";
import { utf8Length } from "../../../src/client/inspector/utf8Length";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { encodeSse } from "../../../src/wire/encodeSse";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

/** A run with a step, a message, a tool call and two state changes. */
function goodRun(): Event[] {
  return [
    ev.runStarted("t1", "r1", { metadata: { "agui-rx": { traceId: TRACE } } }),
    ev.stateSnapshot({ count: 1, items: [] }),
    ev.stepStarted("plan"),
    ev.textMessageStart("m1"),
    ev.textMessageContent("m1", "Hello"),
    ev.toolCallStart("c1", "search", { parentMessageId: "m1" }),
    ev.toolCallArgs("c1", '{"q":"x"}'),
    ev.textMessageContent("m1", " there"),
    ev.toolCallEnd("c1"),
    ev.textMessageEnd("m1"),
    ev.stepFinished("plan"),
    ev.toolCallResult("m2", "c1", "found"),
    ev.stateDelta([{ op: "replace", path: "/count", value: 2 }]),
    ev.runFinished("t1", "r1"),
  ];
}

function body(events: readonly Event[]): string {
  return events.map(encodeSse).join("");
}

test("every frame is kept with its time, size, raw text and event, in order; the raw frames joined give back the body", () => {
  let now = 1000;
  const inspector = new Inspector({ now: () => now++ });
  const text = body(goodRun());
  inspector.stream();
  // Split anywhere, even inside a frame and between CR and LF would be: three uneven pieces.
  inspector.chunk(new TextEncoder().encode(text.slice(0, 37)), 10);
  inspector.chunk(text.slice(37, 400), 20);
  inspector.chunk(new TextEncoder().encode(text.slice(400)), 30);
  inspector.end(40);
  const { events, errors, warnings, streamFindings } = inspector.getSnapshot();
  expect(events.map((event) => event.type)).toEqual(goodRun().map((event) => event.type));
  expect(events.map((event) => event.raw).join("")).toBe(text);
  expect(events.map((event) => event.index)).toEqual(goodRun().map((_, index) => index));
  // A frame's time is when its blank line arrived: the first frame ends in the second piece.
  expect(events[0]).toMatchObject({ at: 20, rawSource: "received", bytes: new TextEncoder().encode(events[0]?.raw ?? "").length });
  expect(events.at(-1)?.at).toBe(30);
  expect(events.reduce((sum, event) => sum + event.bytes, 0)).toBe(new TextEncoder().encode(text).length);
  expect([errors, warnings, streamFindings]).toEqual([0, 0, []]);
});

test("a bad sequence: each finding sits on the event where it happened, and the rest is still checked", () => {
  const inspector = new Inspector();
  inspector.stream();
  inspector.chunk(
    body([ev.runStarted("t1", "r1"), ev.textMessageContent("m9", "orphan"), ev.textMessageStart("m1"), ev.textMessageContent("m1", "ok")]) +
      'data: {"type":"NOT_A_TYPE"}\n\n' +
      "data: {not json\n\n" +
      'data: {"type":"TEXT_MESSAGE_END","messageId":"m1","vendor":1}\n\n' +
      body([ev.stateDelta([{ op: "replace", path: "/missing/deep", value: 1 }])]),
  );
  inspector.end();
  const { events, errors, warnings, streamFindings } = inspector.getSnapshot();
  const found = events.map((event) => event.findings.map((finding) => `${finding.stage}:${finding.rule}`));
  expect(found).toEqual([[], ["verify:R15"], [], [], ["decode:unknown-type"], ["decode:json"], ["decode:unknown-property"], ["apply:patch"]]);
  expect(events[1]?.findings[0]?.message).toContain("m9");
  // The run was never finished: a finding about the stream as a whole.
  expect(streamFindings.map(({ finding }) => finding.rule)).toEqual(["E8"]);
  expect([errors, warnings]).toEqual([5, 1]);
  // The refused content never reached the thread; the accepted one did.
  expect(inspector.getSnapshot().messages.map((message) => message.content)).toEqual(["ok"]);
});

test("the state before and after each STATE_SNAPSHOT and STATE_DELTA, with its diff", () => {
  const inspector = new Inspector();
  inspector.stream();
  for (const event of goodRun()) inspector.frame(encodeSse(event));
  const changed = inspector.getSnapshot().events.filter((event) => event.state !== undefined);
  expect(changed.map((event) => event.type)).toEqual(["STATE_SNAPSHOT", "STATE_DELTA"]);
  expect(changed[0]?.state).toEqual({ before: {}, after: { count: 1, items: [] } });
  expect(changed[1]?.state).toEqual({ before: { count: 1, items: [] }, after: { count: 2, items: [] } });
  expect(stateDiffOf(changed[1]?.state ?? { before: null, after: null })).toEqual([{ op: "replace", path: "/count", value: 2 }]);
  expect(inspector.getSnapshot().state).toEqual({ count: 2, items: [] });
});

test("grouped by run, step, message and tool call: a part is a group where its first event came, interleaving and all, a tool call's result with its call", () => {
  const inspector = new Inspector();
  inspector.stream();
  for (const event of [...goodRun(), ev.runStarted("t1", "r2"), ev.runFinished("t1", "r2")]) inspector.event(event);
  const outline = (group: InspectorGroup): unknown => [
    `${group.kind}:${group.id}`,
    group.items.map((item) => (isInspectorGroup(item) ? outline(item) : item.type)),
  ];
  expect(groupEvents(inspector.getSnapshot().events).map(outline)).toEqual([
    [
      "run:r1",
      [
        "RUN_STARTED",
        "STATE_SNAPSHOT",
        [
          "step:plan",
          [
            "STEP_STARTED",
            ["message:m1", ["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]],
            ["toolCall:c1", ["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT"]],
            "STEP_FINISHED",
          ],
        ],
        "STATE_DELTA",
        "RUN_FINISHED",
      ],
    ],
    ["run:r2", ["RUN_STARTED", "RUN_FINISHED"]],
  ]);
});

test("events from a transport without bytes are shown encoded; the message tree puts a tool result under its call", () => {
  const inspector = new Inspector();
  inspector.stream();
  for (const event of goodRun()) inspector.event(event);
  const first = inspector.getSnapshot().events[0];
  expect(first).toMatchObject({ rawSource: "encoded", raw: encodeSse(goodRun()[0]) });
  const tree = messageTree(inspector.getSnapshot().messages);
  expect(tree.map((node) => [node.message.id, node.children.map((child) => child.message.id)])).toEqual([["m1", ["m2"]]]);
});

test("the cap keeps the newest events and counts the dropped ones", () => {
  const inspector = new Inspector({ maxEvents: 10 });
  inspector.stream();
  inspector.event(ev.runStarted("t1", "r1"));
  for (let index = 0; index < 100; index++) inspector.event(ev.custom("tick", index));
  const { events, dropped } = inspector.getSnapshot();
  expect(events).toHaveLength(10);
  expect(dropped).toBe(91);
  expect(events.map((event) => event.seq)).toEqual([91, 92, 93, 94, 95, 96, 97, 98, 99, 100]);
});

test("a new stream is verified afresh; a late one from its next RUN_STARTED", () => {
  const inspector = new Inspector();
  inspector.stream({ late: true });
  inspector.event(ev.textMessageContent("m1", "mid-run, its start not seen"));
  inspector.event(ev.runStarted("t1", "r2"));
  inspector.event(ev.textMessageContent("m7", "never started"));
  inspector.stream();
  inspector.event(ev.runStarted("t1", "r3"));
  inspector.event(ev.runFinished("t1", "r3"));
  inspector.end();
  const { events, streams } = inspector.getSnapshot();
  expect(events.map((event) => [event.stream, event.type, event.findings.map((finding) => finding.rule)])).toEqual([
    [0, "TEXT_MESSAGE_CONTENT", []],
    [0, "RUN_STARTED", []],
    [0, "TEXT_MESSAGE_CONTENT", ["R15"]],
    [1, "RUN_STARTED", []],
    [1, "RUN_FINISHED", []],
  ]);
  expect(streams).toBe(2);
  // The first stream was left with its run open when the second began.
  expect(inspector.getSnapshot().streamFindings.map(({ stream, finding }) => [stream, finding.rule])).toEqual([[0, "E8"]]);
});

test("the trace id of RUN_STARTED's metadata under our key, and its link; anything else names none", () => {
  const inspector = new Inspector({ traceLink: "https://tracing.example/trace/{traceId}" });
  inspector.stream();
  inspector.event(goodRun()[0]);
  expect(inspector.getSnapshot()).toMatchObject({ traceId: TRACE, traceLink: `https://tracing.example/trace/${TRACE}` });
  expect(traceIdOf(ev.runStarted("t", "r", { metadata: { "agui-rx": { traceId: 7 } } }))).toBeUndefined();
  expect(traceIdOf(ev.runStarted("t", "r", { metadata: { "agui-rx": "x" } }))).toBeUndefined();
  expect(traceIdOf(ev.runStarted("t", "r", { metadata: { traceId: TRACE } }))).toBeUndefined();
  expect(traceLinkOf("/t/{traceId}?q={traceId}", "a b")).toBe("/t/a%20b?q=a%20b");
});

test("a transport failure and a frame cut by the body's end are findings about the stream", () => {
  const inspector = new Inspector();
  inspector.stream();
  inspector.chunk(body([ev.runStarted("t1", "r1")]) + 'data: {"type":"RUN_FIN');
  inspector.end(5, "reading the response failed: socket hang up");
  expect(inspector.getSnapshot().streamFindings.map(({ finding }) => [finding.stage, finding.rule])).toEqual([
    ["sse", "truncated"],
    ["run-end", "E8"],
  ]);
  expect(inspector.getSnapshot().streamFindings[1]?.finding.message).toMatch(/socket hang up$/);
  inspector.stream();
  inspector.end(6, "POST /agent answered 500");
  expect(
    inspector
      .getSnapshot()
      .streamFindings.map(({ finding }) => [finding.stage, finding.rule])
      .at(-1),
  ).toEqual(["transport", "transport"]);
});

test("a frame over the limit is a finding, skipped without being kept whole, and the next frame is read", () => {
  const inspector = new Inspector({ maxFrameBytes: 100 });
  inspector.stream();
  inspector.chunk(body([ev.runStarted("t1", "r1")]));
  for (let index = 0; index < 50; index++) inspector.chunk(`data: ${"x".repeat(40)}\n`);
  inspector.chunk("\n");
  inspector.chunk(body([ev.runFinished("t1", "r1")]));
  const { events } = inspector.getSnapshot();
  expect(events.map((event) => [event.type, event.findings.map((finding) => finding.rule)])).toEqual([
    ["RUN_STARTED", []],
    [undefined, ["frame-too-large"]],
    ["RUN_FINISHED", []],
  ]);
  expect(events[1]?.raw.length).toBeLessThan(300);
});

test("the block splitter: CR, LF and CRLF (split across pieces), leading blank lines kept with the next block", () => {
  const blocks: string[] = [];
  const splitter = new SseBlockSplitter(
    1 << 20,
    (block) => blocks.push(block),
    () => undefined,
  );
  for (const piece of ["data: a\r", "\n\r", "\ndata: b\n\n\ndata: c\r\r: comment\n", "\n"]) splitter.feed(piece);
  expect(blocks).toEqual(["data: a\r\n\r\n", "data: b\n\n", "\ndata: c\r\r", ": comment\n\n"]);
  expect(splitter.finish()).toBe("");
});

test("a snapshot is the same object until something changes, and listeners hear each change", () => {
  const inspector = new Inspector();
  let heard = 0;
  const stop = inspector.subscribe(() => heard++);
  const first = inspector.getSnapshot();
  expect(inspector.getSnapshot()).toBe(first);
  inspector.stream();
  inspector.event(ev.runStarted("t1", "r1"));
  expect(inspector.getSnapshot()).not.toBe(first);
  expect(heard).toBe(2);
  stop();
  inspector.clear();
  expect(heard).toBe(2);
  expect(inspector.getSnapshot().events).toEqual([]);
});

test("utf8Length counts as TextEncoder does, surrogate pairs and lone surrogates included", () => {
  for (const text of ["", "ascii", "héllo 👋", "€", "\ud83d", "a\udc00b", "😀😀"]) expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
});
