/**
 * Fuzz: cut every SSE body at every byte (issue #14 D, A7). A frame counts only once its blank line
 * has arrived (SSE spec: an unterminated last event is discarded), so for every cut: the decoder
 * delivers exactly the frames whose blank line came before the cut, and errors `truncated` when the
 * cut falls inside a frame; the Session ends as the run's terminal says if that frame was complete,
 * and `failed` with code `truncated` otherwise, keeping everything that arrived.
 */
import * as fc from "fast-check";
import { from, of, toArray, lastValueFrom } from "rxjs";
import type { Event } from "../../src/protocol/events";
import { DecodeError } from "../../src/wire/DecodeError";
import { decodeSse } from "../../src/wire/decodeSse";
import { decodeEvents } from "../../src/client/transports/decodeEvents";
import type { Transport } from "../../src/client/transports/Transport";
import { buildStream, eventsOf } from "../operators/verify/generate";
import { fuzzParameters } from "../support/fuzz";
import { expectNothingLost, expectRunEnd, firstRun, runSession, validStreams } from "./runModel";

type LineEnd = "\n" | "\r\n" | "\r";

/** A body in one of the three line-end styles, with comments between some frames; each frame's byte range and dispatch offset. */
function encode(events: readonly Event[], lineEnd: LineEnd, comments: readonly boolean[]) {
  const utf8 = new TextEncoder();
  const parts: Uint8Array[] = [];
  const frames: { start: number; dispatched: number }[] = [];
  let length = 0;
  const push = (text: string) => {
    const bytes = utf8.encode(text);
    parts.push(bytes);
    length += bytes.length;
  };
  events.forEach((event, i) => {
    if (comments[i % comments.length]) push(`: keep-alive ${i}${lineEnd}`);
    const start = length;
    push(`data: ${JSON.stringify(event)}${lineEnd}${lineEnd}`);
    // The blank line's CR already ends it; an LF after it belongs to that line end.
    frames.push({ start, dispatched: lineEnd === "\r\n" ? length - 1 : length });
  });
  const body = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return { body, frames };
}

/** Deltas with multi-byte characters, so that cuts fall inside code points too. */
function withUnicode(events: readonly Event[]): Event[] {
  return events.map((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? { ...event, delta: `${event.delta}é😀` } : event));
}

const bodies = fc.record({
  events: validStreams.map((events) => withUnicode(firstRun(events))),
  lineEnd: fc.constantFrom<LineEnd>("\n", "\r\n", "\r"),
  comments: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
});

test("fuzz: the decoder, at every cut of every body, delivers exactly the complete frames and errors truncated inside one", async () => {
  await fc.assert(
    fc.asyncProperty(bodies, async ({ events, lineEnd, comments }) => {
      const { body, frames } = encode(events, lineEnd, comments);
      const json = events.map((event) => JSON.stringify(event)); // compared as JSON text: cheap enough for every cut
      for (let cut = 0; cut <= body.length; cut++) {
        const delivered: string[] = [];
        let error: unknown;
        from([body.subarray(0, cut)])
          .pipe(decodeSse())
          .subscribe({ next: (event) => delivered.push(JSON.stringify(event)), error: (e: unknown) => (error = e) });
        const complete = frames.filter((frame) => frame.dispatched <= cut).length;
        if (delivered.length !== complete || delivered.some((text, i) => text !== json[i])) {
          expect([cut, delivered]).toEqual([cut, json.slice(0, complete)]); // only to show the difference
        }
        // inside a frame = past its field name "data" (a bare "data" line is a data line, SSE spec) and before its blank line ended it
        const inside = frames.some((frame) => frame.start + 4 <= cut && cut < frame.dispatched);
        const code = error instanceof DecodeError ? error.code : error;
        if (code !== (inside ? "truncated" : undefined)) expect([cut, code]).toEqual([cut, inside ? "truncated" : undefined]);
      }
    }),
    fuzzParameters(12),
  );
});

test("fuzz: the Session, at every cut of every body, ends as the terminal says only if its frame was complete, else failed truncated", async () => {
  // shorter runs (a Session per byte costs more than a decoder per byte)
  const short = fc
    .array(fc.nat({ max: 10_000 }), { minLength: 1, maxLength: 40 })
    .map((choices) => eventsOf(buildStream(choices)).filter((event) => event.type !== "MESSAGES_SNAPSHOT"));
  const shorter = fc.record({
    events: short.map((events) => withUnicode(firstRun(events))),
    lineEnd: fc.constantFrom<LineEnd>("\n", "\r\n", "\r"),
    comments: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
  });
  await fc.assert(
    fc.asyncProperty(shorter, async ({ events, lineEnd, comments }) => {
      const { body, frames } = encode(events, lineEnd, comments);
      const terminal = events[events.length - 1];
      const ended = terminal.type === "RUN_FINISHED" || terminal.type === "RUN_ERROR";
      for (let cut = 0; cut <= body.length; cut++) {
        const slice = body.subarray(0, cut);
        const transport: Transport = { run: () => decodeEvents(of(slice), { warnings: true }) };
        const { session, updates } = await runSession(transport);
        expectRunEnd(updates);
        const complete = frames.filter((frame) => frame.dispatched <= cut).length;
        const last = updates[updates.length - 1];
        const end = last.kind === "done" ? last.end : undefined;
        if (ended && complete === events.length) {
          expect([cut, end?.kind]).toEqual([cut, terminal.type === "RUN_FINISHED" ? "success" : "failed"]);
        } else {
          expect([cut, end]).toEqual([cut, expect.objectContaining({ kind: "failed", code: "truncated" })]);
        }
        expectNothingLost(session.messages, events.slice(0, complete));
      }
    }),
    fuzzParameters(6),
  );
});

test("the rule on one body by hand: a cut right after RUN_FINISHED's data line, then after its blank line", async () => {
  const events = [
    { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
    { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
  ] as Event[];
  const { body } = encode(events, "\n", [false]);
  const text = new TextDecoder().decode(body);
  const endOf = async (bytes: Uint8Array) => {
    const { updates } = await runSession({ run: () => decodeEvents(of(bytes), { warnings: true }) });
    const last = updates[updates.length - 1];
    return last.kind === "done" ? last.end : undefined;
  };
  expect(await endOf(body.subarray(0, text.length - 1))).toMatchObject({
    kind: "failed",
    code: "truncated",
    message: expect.stringContaining("truncated mid-frame"),
  });
  expect(await endOf(body)).toEqual({ kind: "success" });
  expect(await lastValueFrom(from([body]).pipe(decodeSse(), toArray()))).toHaveLength(2);
});
