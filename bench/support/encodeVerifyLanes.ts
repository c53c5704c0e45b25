/**
 * The server's per-event path against the official encoder (issue #27: "the encode + verify path
 * stays ≥ 1.5× a hand loop over the official `EventEncoder`"), on one run of ordinary events built
 * by the `ev.*` builders (a text answer, a tool call with streamed arguments and its result, a
 * state delta), measured in alternation in this process:
 *
 * - **ours**: what `RunCore.write` does per event, `checkedStep` in strict mode (the chunk
 *   normalizer and the verifier) into a sink, then what a response body (`toEventStream`'s pump)
 *   does with it: `textFrame` (the frame's text and UTF-8 size) pushed to a `FrameQueue`, and one
 *   `takeChunk` (the bytes a socket write gets) per read of `DEFAULT_HIGH_WATER_MARK` frames, the
 *   most a paced producer queues before `ready()` makes it wait;
 * - **official**: a hand loop over `@ag-ui/encoder` 1.0.0's `EventEncoder.encodeSSE` (which drops
 *   optional `null` members by the schema, then `JSON.stringify`), each frame to UTF-8 bytes.
 *
 * Before either lane's time counts, its output is checked: the frames, decoded and joined, must be
 * byte for byte the `data: <JSON>\n\n` frames of the run, and ours must have refused nothing.
 */
import { EventEncoder } from "@ag-ui/encoder";
import type { Event as CoreEvent } from "@ag-ui/core";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { checkedStep, initialCheckedState, type CheckedSink } from "../../src/operators/checkedStep";
import type { ProtocolError } from "../../src/operators/ProtocolError";
import { textFrame } from "../../src/server/http/encodeFrame";
import { FrameQueue } from "../../src/server/http/FrameQueue";
import { DEFAULT_HIGH_WATER_MARK } from "../../src/server/http/toEventStream";
import { compare } from "./measure";
import { fmt, printTable } from "./table";
import { recordTarget } from "./targets";

/** Ours must be at least this many times as fast as the official hand loop. */
export const ENCODE_VERIFY_TARGET = 1.5;

const TOKENS = [" The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", "."];

/** One run of `deltas` text deltas, a tool call of 20 argument deltas with its result, and a state delta. */
function runEvents(deltas: number): Event[] {
  const events: Event[] = [ev.runStarted("t1", "r1"), ev.textMessageStart("m1")];
  for (let i = 0; i < deltas; i++) events.push(ev.textMessageContent("m1", TOKENS[i % TOKENS.length]));
  events.push(ev.textMessageEnd("m1"), ev.toolCallStart("c1", "search", { parentMessageId: "m1" }));
  for (let i = 0; i < 20; i++) events.push(ev.toolCallArgs("c1", i === 0 ? '{"query":"' : i === 19 ? '"}' : "fox "));
  events.push(
    ev.toolCallEnd("c1"),
    ev.toolCallResult("m2", "c1", "three results"),
    ev.stateDelta([{ op: "add", path: "/searches", value: 1 }]),
    ev.runFinished("t1", "r1"),
  );
  return events;
}

/** Ours: the strict checked step, then the pump's frames and reads (the chunks a socket writes); throws on the first refusal. */
function oursLane(events: readonly Event[]): Uint8Array[] {
  const state = initialCheckedState({ mode: "strict" });
  const queue = new FrameQueue(undefined);
  const chunks: Uint8Array[] = [];
  const sink: CheckedSink = {
    sent: (event) => {
      queue.push(textFrame(event));
      if (queue.length >= DEFAULT_HIGH_WATER_MARK) chunks.push(queue.takeChunk());
    },
    refused: (error: ProtocolError) => {
      throw error;
    },
  };
  for (const event of events) checkedStep(state, event, sink);
  if (queue.length > 0) chunks.push(queue.takeChunk());
  return chunks;
}

const utf8 = new TextEncoder();

/** The official hand loop: `encodeSSE` per event, to UTF-8 bytes. */
function officialLane(encoder: EventEncoder, events: readonly Event[]): Uint8Array[] {
  return events.map((event) => utf8.encode(encoder.encodeSSE(event as unknown as CoreEvent)));
}

/** Throws unless `chunks` are `count` of them and, decoded and joined, `expected` byte for byte. */
function checkFrames(lane: string, chunks: readonly Uint8Array[], expected: string, count: number): void {
  const decoder = new TextDecoder();
  const text = chunks.map((chunk) => decoder.decode(chunk)).join("");
  if (chunks.length !== count || text !== expected) {
    throw new Error(`${lane}: expected ${count} chunks of ${expected.length} characters in all, but got ${chunks.length} of ${text.length}`);
  }
}

/**
 * Measures both lanes on a run of 1,000 deltas, prints their table, and records the target.
 *
 * @example
 * measureEncodeVerify("server");
 */
export function measureEncodeVerify(suite: string): void {
  const events = runEvents(1_000);
  const expected = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
  const encoder = new EventEncoder({ accept: "text/event-stream" });
  checkFrames("ours (checkedStep + textFrame + takeChunk)", oursLane(events), expected, Math.ceil(events.length / DEFAULT_HIGH_WATER_MARK));
  checkFrames("official (EventEncoder.encodeSSE)", officialLane(encoder, events), expected, events.length);
  const { baseline, candidate, ratio } = compare(
    "official",
    () => officialLane(encoder, events),
    "ours",
    () => oursLane(events),
    { minTimeMs: 1_000, minSamples: 15 },
  );
  const speedup = 1 / ratio;
  const perSecond = (msPerRun: number) => fmt((events.length * 1000) / msPerRun);
  printTable(`the server's per-event path vs a hand loop over @ag-ui/encoder's EventEncoder: ${events.length} events a run, median of alternated samples`, [
    ["lane", "events/s", "× official"],
    ["official: EventEncoder.encodeSSE → UTF-8", perSecond(baseline.msPerOp), "1.00×"],
    [`ours: checkedStep (strict) → textFrame → takeChunk per ${DEFAULT_HIGH_WATER_MARK}`, perSecond(candidate.msPerOp), `${fmt(speedup)}×`],
  ]);
  recordTarget(suite, `server encode + verify ≥ ${ENCODE_VERIFY_TARGET}× EventEncoder hand loop`, `${fmt(speedup)}×`, speedup >= ENCODE_VERIFY_TARGET);
}
