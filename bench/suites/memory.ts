/**
 * The client's memory over a long run (issue #27): a Session follows one run of 1,000,000 events
 * (conversation turns: a text message streamed in deltas, and state deltas), decoded from SSE text
 * produced chunk by chunk (1,000 events a read), so the body itself is never held. Target: the
 * heap after GC grows by at most 2× the size of what the session must retain (its messages and
 * state, measured as the heap a `structuredClone` of them takes).
 *
 * Heap snapshots at 100,000 and at 1,000,000 events (node:v8 `writeHeapSnapshot`, parsed here)
 * give object counts by type and constructor name; their growth between the two, per event, shows
 * any per-event garbage that survives (what the retained messages and state account for is about
 * 0.1 objects per event: one message and its content per ten events).
 *
 * The run is checked before the figures count: it ended `success`, with exactly the generated
 * messages' count and content and the generated state. Needs `--expose-gc` (`npm run bench` has it).
 * Bounded: the run about 2 s and the snapshots about 25 s unloaded (on the development machine at
 * load 13 on 2 cores: 6 s and 90 s). `npm run bench:memory` runs it alone; CI runs it too.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as v8 from "node:v8";
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import { Session } from "../../src/client/Session";
import { decodeEvents } from "../../src/client/transports/decodeEvents";
import type { Transport } from "../../src/client/transports/Transport";
import { encodeSse } from "../../src/wire/encodeSse";
import { fmt, printTable } from "../support/table";
import { printTargets, recordTarget } from "../support/targets";

/** One turn: a message start, six deltas, its end, two state deltas. */
const PER_TURN = 10;
const TURNS = 100_000;
/** The turns, and RUN_STARTED, STATE_SNAPSHOT and RUN_FINISHED around them. */
const EVENTS = TURNS * PER_TURN + 3;
const SNAPSHOT_AT = 100_000;
const PER_READ = 1_000;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (typeof collect !== "function") throw new Error("the memory suite needs node --expose-gc (npm run bench passes it)");
  collect();
  collect(); // a second pass collects what the first one's finalizers let go
}

function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

function turn(k: number): Event[] {
  const id = `m${k}`;
  return [
    ev.textMessageStart(id),
    ...Array.from({ length: 6 }, (_, d) => ev.textMessageContent(id, d === 0 ? `turn ${k}` : " word")),
    ev.textMessageEnd(id),
    ev.stateDelta([{ op: "replace", path: "/turn", value: k }]),
    ev.stateDelta([{ op: "replace", path: "/last", value: id }]),
  ];
}

/** The SSE text of the run, read by read; `at` hears of each read's first event index before it is handed on. */
function chunks(at: (eventIndex: number) => void): Observable<string> {
  return new Observable<string>((subscriber) => {
    let text = encodeSse(ev.runStarted("t", "r")) + encodeSse(ev.stateSnapshot({ turn: -1, last: "" }));
    let index = 2; // the two events above
    let k = 0;
    while (k < TURNS && !subscriber.closed) {
      at(index);
      for (let n = 0; n < PER_READ / PER_TURN && k < TURNS; n++, k++) for (const event of turn(k)) text += encodeSse(event);
      subscriber.next(text);
      index += PER_READ;
      text = "";
    }
    subscriber.next(encodeSse(ev.runFinished("t", "r")));
    subscriber.complete();
  });
}

/** Object counts by "type:name" in a heap snapshot file (the node fields of its own meta description). */
function countObjects(file: string): Map<string, number> {
  const snapshot = JSON.parse(fs.readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
    strings: string[];
  };
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const width = fields.length;
  const counts = new Map<string, number>();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[0][snapshot.nodes[i + typeAt]];
    // Strings and code are counted by type alone: their names are their contents.
    const name = type === "object" || type === "closure" || type === "array" ? snapshot.strings[snapshot.nodes[i + nameAt]] : "";
    const key = `${type}:${name}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Time spent taking and reading snapshots, so the run's own time can be told apart. */
let snapshotMs = 0;

function snapshotCounts(label: string): Map<string, number> {
  const started = performance.now();
  try {
    return countsOf(label);
  } finally {
    snapshotMs += performance.now() - started;
  }
}

function countsOf(label: string): Map<string, number> {
  gc();
  const file = path.join(os.tmpdir(), `agui-rx-memory-${process.pid}-${label}.heapsnapshot`);
  v8.writeHeapSnapshot(file);
  try {
    return countObjects(file);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

function check(session: Session, end: string): void {
  if (end !== "success") throw new Error(`memory: the run ended ${end || "without done"}, expected success`);
  const messages = session.messages;
  if (messages.length !== TURNS + 1) throw new Error(`memory: expected ${TURNS + 1} messages (the user's and one per turn), got ${messages.length}`);
  const last: Message = messages[messages.length - 1];
  const expected = `turn ${TURNS - 1}${" word".repeat(5)}`;
  if (last.id !== `m${TURNS - 1}` || !("content" in last) || last.content !== expected)
    throw new Error(`memory: the last message is ${JSON.stringify(last).slice(0, 200)}, expected content ${expected}`);
  const state = JSON.stringify(session.rawState);
  if (state !== JSON.stringify({ turn: TURNS - 1, last: `m${TURNS - 1}` })) throw new Error(`memory: the state is ${state.slice(0, 200)}`);
}

export default function memorySuite(): Promise<void> {
  const started = performance.now();
  let early: Map<string, number> | undefined;
  const transport: Transport = {
    run: (_input, options) =>
      decodeEvents(
        chunks((index) => {
          if (index >= SNAPSHOT_AT && early === undefined) early = snapshotCounts("100k");
        }),
        { warnings: options?.warnings === true ? true : undefined },
      ),
  };
  const session = new Session(transport, { threadId: "t", newId: () => "generated-id" });
  const before = heapUsed();
  let end = "";
  session.send({ id: "u", role: "user", content: "go" }).subscribe((update) => {
    if (update.kind === "done") end = update.end.kind;
  });
  const runMs = performance.now() - started - snapshotMs;
  check(session, end);
  if (early === undefined) throw new Error(`memory: no snapshot was taken at ${SNAPSHOT_AT} events`);
  const after = heapUsed();
  const late = snapshotCounts("1m");
  // What the session must retain, in the same heap's terms: a structured clone of its messages and state.
  const bare = heapUsed();
  const kept = structuredClone({ messages: session.messages, state: session.rawState });
  const retained = heapUsed() - bare;
  if (kept.messages.length !== TURNS + 1) throw new Error("memory: the clone of the messages is incomplete");
  const growth = after - before;

  const events = EVENTS - SNAPSHOT_AT;
  const rows = [...late]
    .map(([key, count]) => ({ key, early: early?.get(key) ?? 0, late: count }))
    .map((row) => ({ ...row, perEvent: (row.late - row.early) / events }))
    .filter((row) => Math.abs(row.perEvent) >= 0.001)
    .sort((a, b) => b.perEvent - a.perEvent)
    .slice(0, 12);
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
  printTable(
    `heap objects surviving GC, by type:name, at ${SNAPSHOT_AT.toLocaleString("en-US")} and ${EVENTS.toLocaleString("en-US")} events (the largest growths; retaining one message per ${PER_TURN} events accounts for about ${fmt(1 / PER_TURN)} objects per event)`,
    [
      ["type:name", "at 100k", "at 1M", "per event"],
      ...rows.map((row) => [row.key, row.early.toLocaleString("en-US"), row.late.toLocaleString("en-US"), fmt(row.perEvent, 3)]),
      ["all objects", total(early).toLocaleString("en-US"), total(late).toLocaleString("en-US"), fmt((total(late) - total(early)) / events, 3)],
    ],
  );
  const mb = (bytes: number) => `${fmt(bytes / 1e6)} MB`;
  printTable(`a Session over ${EVENTS.toLocaleString("en-US")} events (the run ${fmt(runMs / 1000)} s; snapshots ${fmt(snapshotMs / 1000)} s)`, [
    ["heap after GC before", "after", "growth", "messages + state (clone)", "growth ÷ retained"],
    [mb(before), mb(after), mb(growth), mb(retained), `${fmt(growth / retained)}×`],
  ]);
  recordTarget(
    "memory",
    "1M events: heap growth after GC ≤ 2× what the session retains (messages + state)",
    `${fmt(growth / retained)}×`,
    growth <= 2 * retained,
  );
  printTargets("memory targets", "memory");
  return Promise.resolve();
}
