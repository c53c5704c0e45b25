/**
 * Two checkouts of this project timed against each other in one process, lane by lane, in
 * alternation (so load from other processes hits both alike): the client pipeline and the server's
 * emit path, each lane's result checked before its time counts and again after.
 *
 *   node --expose-gc -r ts-node/register/transpile-only bench/compareBuilds.ts <before-root> [rounds]
 *
 * `<before-root>` is another checkout (a git worktree of main, say, with its node_modules); "after"
 * is this one. Every lane runs `rounds` (default 9, at least 7) rounds; a round times both builds,
 * in an order that alternates from round to round, each for at least `BATCH_MS` of calls. Printed
 * per lane: each build's median ms per call, their ratio (after ÷ before), and the median of the
 * per-round ratios (the paired figure, less exposed to load that changes between rounds).
 *
 * Lanes: the middle alone on decoded events (`norm+verify`: the public normalizeChunks and
 * verifyEvents in report mode; `normalizeAndVerify`: the Session's checked step), on two workloads
 * and on 20,000 chunks; `decode+norm+verify` (decodeSse, normalizeChunks and verifyEvents in report mode) and
 * `session` (a Session over a ReplayTransport: normalizeAndVerify, reducers, updates) on the client
 * workloads at 10,000; `run` (the server's emit path in process: `run()` of an agent writing 50,000
 * deltas, or emitting 20,000 chunks in 40 messages and tool calls, read to its end); `http` (the
 * same delta agent through `createHandler` and loopback HTTP to a reading client, no store).
 */
import * as path from "node:path";
import type { Observable, OperatorFunction, Subscription } from "rxjs";
import type { Event } from "../src/protocol/events";
import type { Agent } from "../src/server/Agent";
import type { InBandReport } from "../src/operators/ProtocolError";
import { checkEventCount, checkEventTypes, checkThread, tally, type Expected, type Thread } from "./support/checkResult";
import { THREAD, USER, WORKLOADS } from "./support/clientWorkloads";
import { collectGarbage, compare } from "./support/measure";
import { postSse, readAll } from "./support/sseReading";
import { fmt, printTable } from "./support/table";

/** The modules a lane runs, loaded from one checkout. */
interface Build {
  readonly name: string;
  /** The checkout's own rxjs: a source from another copy would make one build's operators share (and skew) the other's JIT feedback. */
  readonly rxjs: typeof import("rxjs");
  readonly encodeSse: typeof import("../src/wire/encodeSse").encodeSse;
  readonly decodeSse: typeof import("../src/wire/decodeSse").decodeSse;
  readonly normalizeChunks: typeof import("../src/operators/normalizeChunks").normalizeChunks;
  readonly verifyEvents: typeof import("../src/operators/verifyEvents").verifyEvents;
  readonly isInBandReport: typeof import("../src/operators/ProtocolError").isInBandReport;
  readonly normalizeAndVerify: typeof import("../src/operators/normalizeAndVerify").normalizeAndVerify;
  readonly Session: typeof import("../src/client/Session").Session;
  readonly ReplayTransport: typeof import("../src/client/transports/ReplayTransport").ReplayTransport;
  readonly server: typeof import("../src/server");
  readonly build: typeof import("../src/protocol/build");
  readonly createHandler: typeof import("../src/server/http/createHandler").createHandler;
  readonly serve: typeof import("../src/node/serve").serve;
}

/** Loads `root`'s sources (compiled by ts-node on require): modules of two roots never share state. */
function load(name: string, root: string): Build {
  // A module boundary: require() is untyped, and each module is read as this checkout's own declares it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- another checkout's sources, loaded by path at run time
  const from = <T>(file: string): T => require(path.join(root, "src", file)) as T;
  return {
    name,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- another checkout's sources, loaded by path at run time
    rxjs: require(require.resolve("rxjs", { paths: [root] })) as typeof import("rxjs"),
    encodeSse: from<typeof import("../src/wire/encodeSse")>("wire/encodeSse").encodeSse,
    decodeSse: from<typeof import("../src/wire/decodeSse")>("wire/decodeSse").decodeSse,
    normalizeChunks: from<typeof import("../src/operators/normalizeChunks")>("operators/normalizeChunks").normalizeChunks,
    verifyEvents: from<typeof import("../src/operators/verifyEvents")>("operators/verifyEvents").verifyEvents,
    isInBandReport: from<typeof import("../src/operators/ProtocolError")>("operators/ProtocolError").isInBandReport,
    normalizeAndVerify: from<typeof import("../src/operators/normalizeAndVerify")>("operators/normalizeAndVerify").normalizeAndVerify,
    Session: from<typeof import("../src/client/Session")>("client/Session").Session,
    ReplayTransport: from<typeof import("../src/client/transports/ReplayTransport")>("client/transports/ReplayTransport").ReplayTransport,
    server: from<typeof import("../src/server")>("server"),
    build: from<typeof import("../src/protocol/build")>("protocol/build"),
    createHandler: from<typeof import("../src/server/http/createHandler")>("server/http/createHandler").createHandler,
    serve: from<typeof import("../src/node/serve")>("node/serve").serve,
  };
}

/**
 * One lane: a call that does one unit of work with a build and throws unless its result is the
 * expected one. `sync` lanes finish synchronously: they are timed in many short alternating batches
 * (`compare`), the rest in rounds of awaited calls.
 */
interface Lane {
  readonly name: string;
  readonly call: (build: Build) => Promise<void>;
  readonly sync?: boolean;
}

/** Each build's time per call spends at least this long per round. */
const BATCH_MS = 150;
const CLIENT_SIZE = 10_000;
const DELTAS = 50_000;
const TOKENS = [" The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", "."];

function runSync(run: (done: () => void) => Subscription): void {
  let finished = false;
  run(() => (finished = true));
  if (!finished) throw new Error("the pipeline did not finish synchronously");
}

/** The types `events` come out as through `pipeline` (an in-band report counts as "in-band report"), run synchronously. */
function typesThrough(b: Build, events: readonly Event[], pipeline: (b: Build) => OperatorFunction<Event, Event | InBandReport>): Record<string, number> {
  const types: Record<string, number> = {};
  runSync((done) =>
    b.rxjs
      .from(events)
      .pipe(pipeline(b))
      .subscribe({
        next: (value) => {
          const type = b.isInBandReport(value) ? "in-band report" : value.type;
          types[type] = (types[type] ?? 0) + 1;
        },
        complete: done,
      }),
  );
  return types;
}

/**
 * The middle alone, on events already decoded, where the checked step's share of the time is
 * largest: the public pair, and the Session's `normalizeAndVerify`, on two workloads and on a
 * stream of chunks (the only one here the normalizer expands).
 */
function middleLanes(): Lane[] {
  const pair = (b: Build) => (source: Observable<Event>) => source.pipe(b.normalizeChunks({ mode: "report" }), b.verifyEvents({ mode: "report" }));
  const fused = (b: Build) => b.normalizeAndVerify({ newId: () => "generated-id" });
  const lanes: Lane[] = [];
  const chunked = chunkEvents(20_000, 500);
  const streams: [string, readonly Event[], Record<string, number>][] = [
    ...WORKLOADS.filter((w) => w.name === "text" || w.name === "mixed").map((w): [string, readonly Event[], Record<string, number>] => {
      const { events, expected } = w.generate(CLIENT_SIZE);
      return [`${w.name}/${CLIENT_SIZE.toLocaleString("en-US")}`, events, { ...expected.eventTypes }];
    }),
    ["chunks/20,000", chunked, chunkingExpected(20_000, 500)],
  ];
  for (const [label, events, expected] of streams) {
    for (const [name, pipeline] of [
      ["norm+verify", pair],
      ["normalizeAndVerify", fused],
    ] as const) {
      lanes.push({
        name: `${name} ${label}`,
        sync: true,
        call: async (b) => sameTally(`${name} on ${label} (${b.name})`, typesThrough(b, events, pipeline), expected),
      });
    }
  }
  return lanes;
}

function clientLanes(): Lane[] {
  const lanes: Lane[] = [];
  for (const workload of WORKLOADS) {
    const { events, expected } = workload.generate(CLIENT_SIZE);
    const label = `${workload.name}/${CLIENT_SIZE.toLocaleString("en-US")}`;
    const bodies = new Map<Build, string>(); // each build encodes its own body once
    const body = (b: Build) => bodies.get(b) ?? bodies.set(b, events.map((event) => b.encodeSse(event)).join("")).get(b) ?? "";
    lanes.push({
      name: `decode+norm+verify ${label}`,
      sync: true,
      call: async (b) => {
        const types: Record<string, number> = {};
        runSync((done) =>
          b.rxjs
            .of(body(b))
            .pipe(b.decodeSse(), b.normalizeChunks({ mode: "report" }), b.verifyEvents({ mode: "report" }))
            .subscribe({
              next: (value) => {
                const type = b.isInBandReport(value) ? "in-band report" : value.type;
                types[type] = (types[type] ?? 0) + 1;
              },
              complete: done,
            }),
        );
        checkEventTypes(`decode+norm+verify on ${label} (${b.name})`, types, expected);
      },
    });
    lanes.push({
      name: `session ${label}`,
      sync: true,
      call: async (b) => {
        const s = new b.Session(new b.ReplayTransport(body(b)), { threadId: THREAD, newId: () => "generated-id" });
        let end = "";
        s.send(USER).subscribe((update) => {
          if (update.kind === "done") end = update.end.kind;
        });
        if (end !== "success") throw new Error(`session on ${label} (${b.name}): the run ended ${end || "without done"}`);
        const thread: Thread = { messages: s.messages, state: s.rawState };
        checkThread(`session on ${label} (${b.name})`, thread, expected);
      },
    });
  }
  return lanes;
}

/** Writes `deltas` text deltas in one message through the typed writer (the server's hot path). */
function streaming(b: Build, deltas: number): Agent {
  return {
    async run(ctx) {
      const message = ctx.assistantMessage();
      for (let i = 0; i < deltas; i++) message.delta(TOKENS[i % TOKENS.length]);
      message.end();
      return b.server.success();
    },
  };
}

/** `chunks` chunks: text messages and tool calls in turn, `per` chunks each. */
function chunks(count: number, per: number): Event[] {
  return Array.from({ length: count }, (_, i): Event => {
    const stream = Math.floor(i / per);
    return stream % 2 === 0
      ? { type: "TEXT_MESSAGE_CHUNK", messageId: `m${stream}`, delta: TOKENS[i % TOKENS.length] }
      : { type: "TOOL_CALL_CHUNK", toolCallId: `t${stream}`, toolCallName: "lookup", delta: `"${i}"` };
  });
}

/** The same chunks as a whole stream, between RUN_STARTED and RUN_FINISHED. */
function chunkEvents(count: number, per: number): Event[] {
  return [{ type: "RUN_STARTED", threadId: "t", runId: "r" }, ...chunks(count, per), { type: "RUN_FINISHED", threadId: "t", runId: "r" }];
}

/** Emits the chunks through `ctx.emit` (the normalizer's chunk path on the server). */
function chunking(count: number, per: number): Agent {
  const list = chunks(count, per);
  return {
    async run(ctx) {
      for (const chunk of list) ctx.emit(chunk);
    },
  };
}

/** What `chunking(chunks, per)` must produce: per stream a START, its deltas and an END, between RUN_STARTED and RUN_FINISHED. */
function chunkingExpected(chunks: number, per: number): Record<string, number> {
  const streams = Math.ceil(chunks / per);
  const text = Math.ceil(streams / 2);
  const tools = streams - text;
  const textDeltas = Array.from({ length: streams }, (_, s) => (s % 2 === 0 ? Math.min(per, chunks - s * per) : 0)).reduce((x, y) => x + y, 0);
  return {
    RUN_STARTED: 1,
    TEXT_MESSAGE_START: text,
    TEXT_MESSAGE_CONTENT: textDeltas,
    TEXT_MESSAGE_END: text,
    TOOL_CALL_START: tools,
    TOOL_CALL_ARGS: chunks - textDeltas,
    TOOL_CALL_END: tools,
    RUN_FINISHED: 1,
  };
}

function sameTally(lane: string, actual: Record<string, number>, expected: Record<string, number>): void {
  const a = JSON.stringify(Object.entries(actual).sort());
  const e = JSON.stringify(Object.entries(expected).sort());
  if (a !== e) throw new Error(`${lane}: expected the events ${e}, but got ${a}`);
}

function serverLanes(): Lane[] {
  const deltaTally = { RUN_STARTED: 1, TEXT_MESSAGE_START: 1, TEXT_MESSAGE_CONTENT: DELTAS, TEXT_MESSAGE_END: 1, RUN_FINISHED: 1 };
  const inProcess = (name: string, agent: (b: Build) => Agent, expected: Record<string, number>): Lane => ({
    name,
    call: async (b) => {
      const events: Event[] = [];
      const input = b.build.runAgentInput("t", "r", { messages: [{ id: "u1", role: "user", content: "go" }] });
      const sink = b.server.run(agent(b), input, { ids: b.server.sequentialIds() });
      await new Promise<void>((resolve, reject) => sink.subscribe({ next: (event) => events.push(event), error: reject, complete: resolve }));
      sameTally(`${name} (${b.name})`, tally(events), expected);
    },
  });
  const http: Lane = {
    name: `http ${DELTAS.toLocaleString("en-US")} deltas, no store`,
    call: async (b) => {
      const server = await b.serve(b.createHandler(streaming(b, DELTAS)));
      try {
        const input = b.build.runAgentInput("t", "r1", { messages: [{ id: "u1", role: "user", content: "go" }] });
        const { frames } = await readAll(await postSse(`${server.url}agent`, input));
        const expected: Expected = { events: DELTAS + 4, eventTypes: deltaTally, messages: [], state: undefined, toolCalls: 0 };
        checkEventCount(`http (${b.name})`, frames, expected);
      } finally {
        await server.close();
      }
    },
  };
  return [
    inProcess(`run ${DELTAS.toLocaleString("en-US")} deltas`, (b) => streaming(b, DELTAS), deltaTally),
    inProcess("run 20,000 chunks", () => chunking(20_000, 500), chunkingExpected(20_000, 500)),
    http,
  ];
}

/** ms per call of `lane` on `build`: calls repeated until `BATCH_MS` has passed, after a garbage collection. */
async function timeBatch(lane: Lane, build: Build): Promise<number> {
  collectGarbage();
  let calls = 0;
  const start = performance.now();
  do {
    await lane.call(build);
    calls++;
  } while (performance.now() - start < BATCH_MS);
  return (performance.now() - start) / calls;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A synchronous lane: `rounds` runs of `compare` (batches of the two builds alternating about every
 * 20 ms for 2 × 300 ms, the median of the per-batch ratios), which build goes first alternating
 * from run to run; the row holds the medians over the runs.
 */
function syncRow(lane: Lane, before: Build, after: Build, rounds: number): string[] {
  const once = (b: Build) => () => {
    void lane.call(b); // a sync lane's promise is settled when the call returns; its check throws synchronously
  };
  const beforeMs: number[] = [];
  const afterMs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const [first, second] = round % 2 === 0 ? [before, after] : [after, before];
    const run = compare(first.name, once(first), second.name, once(second), { minTimeMs: 300, warmUpMs: 50, minSamples: 9 });
    const [b, a] = first === before ? [run.baseline, run.candidate] : [run.candidate, run.baseline];
    beforeMs.push(b.msPerOp);
    afterMs.push(a.msPerOp);
    ratios.push(first === before ? run.ratio : 1 / run.ratio);
  }
  const b = median(beforeMs);
  const a = median(afterMs);
  return [lane.name, fmt(b, 3), fmt(a, 3), fmt(a / b, 3), fmt(median(ratios), 3)];
}

async function main(): Promise<void> {
  const [beforeRoot, roundsArg] = process.argv.slice(2);
  if (beforeRoot === undefined) throw new Error("expected the root of the checkout to compare with (e.g. a git worktree of main), but got none");
  const rounds = Math.max(7, Number(roundsArg ?? 9) || 9);
  const before = load("before", path.resolve(beforeRoot));
  const after = load("after", path.resolve(__dirname, ".."));
  const filters = process.argv.slice(4);
  const lanes = [...middleLanes(), ...clientLanes(), ...serverLanes()].filter((lane) => filters.length === 0 || filters.some((f) => lane.name.includes(f)));
  console.log(`node ${process.version}; before = ${beforeRoot}, after = this checkout; ${rounds} rounds per lane, each build ≥ ${BATCH_MS} ms per round`);
  const rows: string[][] = [["lane", "before ms", "after ms", "after ÷ before", "median of round ratios"]];
  for (const lane of lanes) {
    for (const build of [before, after, before, after]) await lane.call(build); // warm-up, and the first check
    if (lane.sync === true) {
      rows.push(syncRow(lane, before, after, rounds));
      console.log(rows[rows.length - 1].join(" | "));
      continue;
    }
    const times = new Map<Build, number[]>([
      [before, []],
      [after, []],
    ]);
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [before, after] : [after, before];
      for (const build of order) times.get(build)?.push(await timeBatch(lane, build));
      const [b, a] = [times.get(before) ?? [], times.get(after) ?? []];
      ratios.push(a[a.length - 1] / b[b.length - 1]);
    }
    const b = median(times.get(before) ?? []);
    const a = median(times.get(after) ?? []);
    rows.push([lane.name, fmt(b, 3), fmt(a, 3), fmt(a / b, 3), fmt(median(ratios), 3)]);
    console.log(rows[rows.length - 1].join(" | "));
  }
  printTable(`after ÷ before, ms per call, median of ${rounds} interleaved rounds (lower is faster)`, rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
