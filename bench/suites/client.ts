/**
 * The client pipeline end to end (DESIGN §5), against a raw floor and the official client, on the
 * same SSE bytes in the same process. Workloads (N = 1,000, 10,000, 50,000):
 *
 * - `text`: one assistant message of N deltas;
 * - `chat`: the same after a MESSAGES_SNAPSHOT history of 1,000 messages;
 * - `state`: a STATE_SNAPSHOT of about 1 MB (an array of 100 sections × 100 tasks) then N
 *   one-operation deltas; `state-wide` the same with the sections under 100 keys of one object,
 *   which structural sharing must copy on every delta (about 5 µs per copy in V8; no target);
 * - `tools`: N tool calls (start, args, end), each its own assistant message;
 * - `mixed`: text, tool calls with results, state deltas, reasoning and activity interleaved.
 *
 * Stages: `floor` (split the body into frames and JSON.parse each: the least any decoder does),
 * `decode` (decodeSse), `decode+norm+verify` (plus normalizeChunks and verifyEvents in report
 * mode), `session` (a Session over a ReplayTransport: everything, updates included), and
 * `official` (@ag-ui/client 1.0.0: parseSSEStream, transformChunks, verifyEvents,
 * defaultApplyEvents). Our stages are timed in alternation with the floor (`compare`: median of
 * per-sample ratios, robust to load from other processes); the official pipeline is asynchronous,
 * so it is timed on its own (median of 5 runs after a warm-up) next to a floor timed the same way.
 * Ratios are events/s as a multiple of the floor's. The official client's tool-call lookup scans every message
 * per event, so its `tools` and `mixed` runs at 50,000 are skipped (minutes of quadratic work).
 *
 * Targets: session ≥ 1/3 of the floor on `text` at 50,000; 10k → 50k time ratio ≤ 6; `chat` and
 * `state` per-event cost within 1.5× of `text`.
 */
import { from, of, Subscription } from "rxjs";
import { AbstractAgent, defaultApplyEvents, parseSSEStream, transformChunks, verifyEvents as officialVerify } from "@ag-ui/client";
import { EMPTY } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import { encodeSse } from "../../src/wire/encodeSse";
import { decodeSse } from "../../src/wire/decodeSse";
import { normalizeChunks } from "../../src/operators/normalizeChunks";
import { verifyEvents } from "../../src/operators/verifyEvents";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import { collectGarbage, compare } from "../support/measure";
import { fmt, printTable } from "../support/table";

const THREAD = "t";
const RUN = "r";
const SIZES = [1_000, 10_000, 50_000];
const RUNS = 5;

interface Workload {
  readonly name: string;
  readonly events: (n: number) => Event[];
  /** Above this N the official client is not run (quadratic lookups). */
  readonly officialMax?: number;
}

function history(count: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    messages.push(
      i % 2 === 0
        ? { id: `h-${i}`, role: "user", content: `Question number ${i} about the quarterly plan?` }
        : { id: `h-${i}`, role: "assistant", content: `An answer of moderate length for question ${i - 1}, with some detail.` },
    );
  }
  return messages;
}

interface Section {
  title: string;
  tasks: { id: string; title: string; done: boolean; tags: string[] }[];
}

function sectionList(): Section[] {
  const sections: Section[] = [];
  for (let s = 0; s < 100; s++) {
    const tasks = [];
    for (let i = 0; i < 100; i++) tasks.push({ id: `task-${s}-${i}`, title: `Follow up on customer call ${s}/${i} and write notes`, done: i % 3 === 0, tags: ["board", "q3"] });
    sections.push({ title: `Section ${s}`, tasks });
  }
  return sections;
}

/** About 1 MB: 100 sections of 100 tasks, the sections in an array. */
function bigState(): { sections: Section[] } {
  return { sections: sectionList() };
}

/** The same data with the sections under 100 keys of one object: each delta copies that wide object (structural sharing). */
function wideState(): { sections: Record<string, Section> } {
  const sections: Record<string, Section> = {};
  sectionList().forEach((section, s) => (sections[`s${s}`] = section));
  return { sections };
}

const text = (n: number, prefix: Event[] = []): Event[] => [
  ev.runStarted(THREAD, RUN),
  ...prefix,
  ev.textMessageStart("m"),
  ...Array.from({ length: n }, (_, i) => ev.textMessageContent("m", i % 7 === 0 ? " word\n" : " word")),
  ev.textMessageEnd("m"),
  ev.runFinished(THREAD, RUN),
];

const WORKLOADS: Workload[] = [
  { name: "text", events: (n) => text(n) },
  { name: "chat", events: (n) => text(n, [ev.messagesSnapshot(history(1_000))]) },
  {
    name: "state",
    events: (n) => [
      ev.runStarted(THREAD, RUN),
      ev.stateSnapshot(bigState()),
      ...Array.from({ length: n }, (_, i) => ev.stateDelta([{ op: "replace", path: `/sections/${i % 100}/tasks/${(i * 7) % 100}/done`, value: i % 2 === 0 }])),
      ev.runFinished(THREAD, RUN),
    ],
  },
  {
    name: "state-wide",
    events: (n) => [
      ev.runStarted(THREAD, RUN),
      ev.stateSnapshot(wideState()),
      ...Array.from({ length: n }, (_, i) => ev.stateDelta([{ op: "replace", path: `/sections/s${i % 100}/tasks/${(i * 7) % 100}/done`, value: i % 2 === 0 }])),
      ev.runFinished(THREAD, RUN),
    ],
  },
  {
    name: "tools",
    officialMax: 10_000,
    events: (n) => {
      const events: Event[] = [ev.runStarted(THREAD, RUN)];
      for (let i = 0; i < n; i++) events.push(ev.toolCallStart(`c${i}`, "search"), ev.toolCallArgs(`c${i}`, `{"q":"item ${i}"}`), ev.toolCallEnd(`c${i}`));
      events.push(ev.runFinished(THREAD, RUN));
      return events;
    },
  },
  {
    name: "mixed",
    officialMax: 10_000,
    events: (n) => {
      const events: Event[] = [ev.runStarted(THREAD, RUN), ev.stateSnapshot({ counter: 0, log: [] })];
      for (let i = 0; events.length < n; i++) {
        events.push(ev.textMessageStart(`m${i}`));
        for (let d = 0; d < 5; d++) events.push(ev.textMessageContent(`m${i}`, " token"));
        events.push(ev.textMessageEnd(`m${i}`));
        events.push(ev.toolCallStart(`c${i}`, "lookup", { parentMessageId: `m${i}` }), ev.toolCallArgs(`c${i}`, "{}"), ev.toolCallEnd(`c${i}`));
        events.push(ev.toolCallResult(`r${i}`, `c${i}`, "result"));
        events.push(ev.stateDelta([{ op: "replace", path: "/counter", value: i }]));
        // A reasoning message opens inside a reasoning block (R22), as every producer writes it.
        events.push(ev.reasoningStart(`rs${i}`), ev.reasoningMessageStart(`rs${i}`), ev.reasoningMessageContent(`rs${i}`, "hmm"));
        events.push(ev.reasoningMessageEnd(`rs${i}`), ev.reasoningEnd(`rs${i}`));
        events.push(ev.activitySnapshot(`a${i}`, "progress", { done: 0 }), ev.activityDelta(`a${i}`, "progress", [{ op: "replace", path: "/done", value: 1 }]));
      }
      events.push(ev.runFinished(THREAD, RUN));
      return events;
    },
  },
];

/** The raw floor: split frames, parse each. */
function floor(body: string): number {
  let count = 0;
  for (const frame of body.split("\n\n")) {
    if (frame.length === 0) continue;
    JSON.parse(frame.slice(6));
    count++;
  }
  return count;
}

/** Runs a synchronous pipeline to completion (and checks that it was synchronous). */
function runSync(run: (done: () => void) => Subscription): void {
  let finished = false;
  run(() => (finished = true));
  if (!finished) throw new Error("the pipeline did not finish synchronously");
}

function decodeOnly(body: string): void {
  runSync((done) => of(body).pipe(decodeSse()).subscribe({ complete: done }));
}

function decodeNormVerify(body: string): void {
  runSync((done) => of(body).pipe(decodeSse(), normalizeChunks({ mode: "report" }), verifyEvents({ mode: "report" })).subscribe({ complete: done }));
}

function session(body: string): void {
  let n = 0;
  const s = new Session(new ReplayTransport(body), { threadId: THREAD, newId: () => `id-${++n}` });
  let end = "";
  s.send("go").subscribe((update) => {
    if (update.kind === "done") end = update.end.kind;
  });
  if (end !== "success") throw new Error(`the session run ended ${end || "without done"}`);
}

class BenchAgent extends AbstractAgent {
  run(): ReturnType<AbstractAgent["run"]> {
    return EMPTY as never; // never called: the bench drives defaultApplyEvents directly
  }
}

async function official(bytes: Uint8Array): Promise<void> {
  const agent = new BenchAgent({ threadId: THREAD });
  const input = { threadId: THREAD, runId: RUN, messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
  // their operators lift onto our rxjs copy's Observable; the HttpEvent enum values are "headers" and "data"
  const http$ = from([{ type: "data", data: bytes }]);
  const events$ = parseSSEStream(http$ as never).pipe(transformChunks() as never, officialVerify() as never);
  await new Promise<void>((resolve, reject) => defaultApplyEvents(input as never, events$ as never, agent, []).subscribe({ error: reject, complete: resolve }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(fn: () => void | Promise<void>): Promise<number> {
  await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    collectGarbage();
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

export default async function clientSuite(): Promise<void> {
  const rows: string[][] = [["workload", "N", "events", "floor ev/s", "decode", "+norm+verify", "session", "official", "session ev/s", "official ev/s"]];
  const perEvent = new Map<string, number>();
  const sessionMs = new Map<string, number>();
  const floorMs = new Map<string, number>();
  const textRatio = new Map<number, number>();
  for (const workload of WORKLOADS) {
    for (const n of SIZES) {
      const events = workload.events(n);
      const body = events.map((event) => encodeSse(event)).join("");
      const bytes = new TextEncoder().encode(body);
      const count = floor(body);
      // Each stage is timed in alternation with the floor (bench/support/measure.compare), so a
      // load spike hits both; the ratio is the median of per-sample ratios.
      const options = { minTimeMs: 300, warmUpMs: 100, minSamples: 7 };
      const decode = compare("floor", () => floor(body), "decode", () => decodeOnly(body), options);
      const verify = compare("floor", () => floor(body), "decode+norm+verify", () => decodeNormVerify(body), options);
      const full = compare("floor", () => floor(body), "session", () => session(body), options);
      const runOfficial = workload.officialMax === undefined || n <= workload.officialMax;
      // The official pipeline is asynchronous: timed on its own, with the floor timed just before.
      const officialMs = runOfficial ? await time(() => official(bytes)) : undefined;
      const officialFloorMs = runOfficial ? await time(() => void floor(body)) : undefined;
      const floorRate = (count / full.baseline.msPerOp) * 1000;
      const sessionRate = (count / full.candidate.msPerOp) * 1000;
      const officialRate = officialMs === undefined ? undefined : (count / officialMs) * 1000;
      const asRate = (ratio: number) => `${fmt(1 / ratio)}×`;
      rows.push([
        workload.name,
        n.toLocaleString("en-US"),
        count.toLocaleString("en-US"),
        fmt(floorRate),
        asRate(decode.ratio),
        asRate(verify.ratio),
        asRate(full.ratio),
        officialMs === undefined || officialFloorMs === undefined ? "skipped" : asRate(officialMs / officialFloorMs),
        fmt(sessionRate),
        officialRate === undefined ? "-" : fmt(officialRate),
      ]);
      perEvent.set(`${workload.name}/${n}`, full.candidate.msPerOp / count);
      sessionMs.set(`${workload.name}/${n}`, full.candidate.msPerOp);
      floorMs.set(`${workload.name}/${n}`, full.baseline.msPerOp);
      if (workload.name === "text") textRatio.set(n, 1 / full.ratio);
    }
  }
  printTable("client pipeline: events/s as a multiple of the raw floor's (higher is better)", rows);

  const text50k = textRatio.get(50_000) ?? NaN;
  const checks: string[][] = [["target", "measured", "ok"]];
  checks.push(["session ≥ 1/3 of floor on text@50k", `${fmt(text50k)}×`, text50k >= 1 / 3 ? "yes" : "NO"]);
  for (const workload of WORKLOADS) {
    // The floor's own growth shows what the machine adds (GC, caches, load) to 5× the work.
    const growth = (sessionMs.get(`${workload.name}/50000`) ?? NaN) / (sessionMs.get(`${workload.name}/10000`) ?? NaN);
    const floorGrowth = (floorMs.get(`${workload.name}/50000`) ?? NaN) / (floorMs.get(`${workload.name}/10000`) ?? NaN);
    checks.push([`${workload.name}: time 10k → 50k ≤ 6× (floor: ${fmt(floorGrowth)}×)`, `${fmt(growth)}×`, growth <= 6 ? "yes" : "NO"]);
  }
  for (const name of ["chat", "state"]) {
    const relative = (perEvent.get(`${name}/50000`) ?? NaN) / (perEvent.get("text/50000") ?? NaN);
    checks.push([`${name}: per-event cost ≤ 1.5× text (50k)`, `${fmt(relative)}×`, relative <= 1.5 ? "yes" : "NO"]);
  }
  printTable("client targets", checks);
}
