/** The store scripts' argument builders and reply parsers (pure); what the Lua does is tested on a real Redis (test/redis/live). */
import { appendArguments, appendScript, parseAppendReply } from "../../src/redis/scripts/appendBatch";
import { crossesBoundStep, parseQuietAppendReply, quietAppendArguments, quietAppendScript } from "../../src/redis/scripts/quietAppend";
import { beginArguments, beginScript, parseBeginReply } from "../../src/redis/scripts/beginRun";
import { checkpointArguments, checkpointScript, parseCheckpointReply } from "../../src/redis/scripts/checkpointSnapshot";
import { historyScript, parseHistoryReply, parseRowReply, removeScript, rowScript, setTitleScript, updateScript } from "../../src/redis/scripts/threadScripts";
import type { SnapshotWrite } from "../../src/redis/snapshotWrites";
import { noticeScript, parseNoticeReply, parseRenewReply, renewArguments, renewScript } from "../../src/redis/scripts/leaseScripts";
import { contextArguments, PRELUDE, PRELUDE_FUNCTIONS, PRELUDE_HEAD } from "../../src/redis/scripts/prelude";
import { parseReadReply, readArguments, readScript } from "../../src/redis/scripts/readThread";
import { idsAbsentScript } from "../../src/redis/scripts/idsAbsent";
import { parseSelectReply, selectArguments, selectScript } from "../../src/redis/scripts/selectBranch";
import { parseStopReply, stopScript } from "../../src/redis/scripts/stopRun";
import { StoreError } from "../../src/server/store/StoreError";

function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    if (StoreError.isInstance(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error("expected the parser to refuse");
}

test("every script starts with the prelude and reads its own arguments from ARGV[5] on", () => {
  // the append runs its common case between the prelude's head and its functions
  expect(appendScript.source.startsWith(PRELUDE_HEAD)).toBe(true);
  expect(appendScript.source).toContain(PRELUDE_FUNCTIONS);
  expect(appendScript.source.slice(PRELUDE_HEAD.length)).not.toMatch(/ARGV\[[1-4]\]/);
  // the quiet append needs none of the prelude (no clock, no functions) and none of the context
  expect(quietAppendScript.source).not.toMatch(/ARGV\[[1-4]\]|NOW|touch/);
  for (const script of [
    beginScript,
    checkpointScript,
    noticeScript,
    renewScript,
    readScript,
    stopScript,
    rowScript,
    updateScript,
    setTitleScript,
    removeScript,
    historyScript,
    idsAbsentScript,
    selectScript,
  ]) {
    expect(script.source.startsWith(PRELUDE)).toBe(true);
    expect(script.source.slice(PRELUDE.length)).not.toMatch(/ARGV\[[1-4]\]/);
  }
  expect(contextArguments({ now: "250", channel: "c", threadId: "t", ttl: 60_000 })).toEqual(["250", "c", "t", "60000"]);
});

const write: SnapshotWrite = { base: "3", cursor: "4-0", seq: 4, body: "{c}", count: 2, from: 1, tree: "=", messages: ["m2", "{m}"] };

test("begin: arguments in ARGV order, the snapshot write last; started, active, retry, moved, deleted", () => {
  const request = {
    runId: "r1",
    startedJson: "{s}",
    snapshot: write,
    expectLast: "5-0",
    expectCursor: null,
    owner: "ann",
    defaultTitle: "Hi",
    lease: 1000,
    leaseTtl: 2000,
    maxRuns: 3,
    selection: "2",
  };
  expect(beginArguments(request)).toEqual([
    "r1",
    "{s}",
    "5-0",
    "1000",
    "2000",
    "3",
    "-",
    "ann",
    "Hi",
    "2",
    "",
    "0",
    "3",
    "4-0",
    "4",
    "{c}",
    "2",
    "1",
    "=",
    "m2",
    "{m}",
  ]);
  expect(beginArguments({ ...request, dequeue: "q1", passQueue: true }).slice(10, 12)).toEqual(["q1", "1"]);
  expect(beginArguments({ ...request, expectCursor: undefined, owner: undefined }).slice(6, 8)).toEqual(["", ""]);
  expect(beginArguments({ ...request, expectCursor: "5-0" })[6]).toBe("5-0");
  expect(parseBeginReply(["ok", "6-0", "12", "1", ["row"], ""])).toEqual({
    kind: "started",
    cursor: "6-0",
    seq: 12,
    created: true,
    row: ["row"],
    dequeued: undefined,
  });
  expect(parseBeginReply(["ok", "6-0", "12", "0", ["row"], "{q}"])).toMatchObject({ kind: "started", dequeued: "{q}" });
  expect(parseBeginReply(["active", "r0"])).toEqual({ kind: "active", liveRunId: "r0" });
  expect(["retry", "moved", "deleted", "queue-pending", "queue-moved"].map((status) => parseBeginReply([status]))).toEqual([
    { kind: "retry" },
    { kind: "moved" },
    { kind: "deleted" },
    { kind: "queue-pending" },
    { kind: "queue-moved" },
  ]);
  expect(refusal(() => parseBeginReply(["maybe"]))).toBe(
    'unavailable: expected one of "ok", "active", "retry", "moved", "deleted", "queue-pending", "queue-moved" as the begin script\'s status, but Redis answered "maybe"',
  );
});

test("append: the bound, the first sequence number, the batch size, the quiet window after it, each event's JSON, then the checkpoint if any; logged, ended or misplaced", () => {
  const events = [
    { type: "STEP_STARTED", json: "{a}" },
    { type: "STEP_FINISHED", json: "{b}" },
  ];
  expect(appendArguments({ runId: "r1", lease: 1000, leaseTtl: 1000, terminal: false, maxEvents: 50, firstSeq: 3, events, quietMs: 100 })).toEqual([
    "r1",
    "1000",
    "1000",
    "0",
    "50",
    "3",
    "2",
    "",
    "100",
    "{a}",
    "{b}",
  ]);
  expect(appendArguments({ runId: "r1", lease: 1, leaseTtl: 2, terminal: true, maxEvents: 9, checkpoint: write, firstSeq: 5, events: [] })).toEqual([
    "r1",
    "1",
    "2",
    "1",
    "9",
    "5",
    "0",
    "",
    "0",
    "3",
    "4-0",
    "4",
    "{c}",
    "2",
    "1",
    "=",
    "m2",
    "{m}",
  ]);
  expect(appendArguments({ runId: "r1", lease: 1, leaseTtl: 1, terminal: false, maxEvents: 9, firstSeq: 5, events: [], userMessageIds: ["u9"] })[7]).toBe(
    '["u9"]',
  );
  expect(parseAppendReply(["ok", "1", "7", ["9-0", "9-1"], "kept", []])).toEqual({
    kind: "logged",
    stopRequested: true,
    firstSeq: 7,
    cursors: ["9-0", "9-1"],
    checkpoint: "kept",
    row: [],
    taken: [],
  });
  expect(parseAppendReply(["ok", "1", "7", ["9-0"], "none", [], ["{q}"]])).toMatchObject({ taken: ["{q}"] });
  expect(parseAppendReply(["ok", "0", "0", [], "none", []])).toMatchObject({
    kind: "logged",
    stopRequested: false,
    firstSeq: 0,
    cursors: [],
    checkpoint: "none",
  });
  expect(parseAppendReply(["ended", "abandoned"])).toEqual({ kind: "ended", abandoned: true, deleted: false });
  expect(quietAppendArguments(7, ["{a}", "{b}"])).toEqual(["7", "2", "{a}", "{b}"]);
  expect(parseQuietAppendReply(["9-3", "9-4"])).toEqual(["9-3", "9-4"]);
  expect(parseQuietAppendReply(null)).toBeUndefined(); // nothing logged: the full way
  expect(refusal(() => parseQuietAppendReply("9-3"))).toContain("expected an array as the reply of the quiet append's cursors");
  expect([crossesBoundStep(998, 1, 100_000), crossesBoundStep(999, 1, 100_000), crossesBoundStep(5, 10_000, 0), crossesBoundStep(3, 1, 50)]).toEqual([
    false,
    true,
    false,
    true,
  ]);
  expect(parseAppendReply(["ended", "over"])).toEqual({ kind: "ended", abandoned: false, deleted: false });
  expect(parseAppendReply(["ended", "deleted"])).toEqual({ kind: "ended", abandoned: false, deleted: true });
  expect(parseAppendReply(["misplaced", "12"])).toEqual({ kind: "misplaced", next: 12 });
  expect(refusal(() => parseAppendReply(["maybe"]))).toBe(
    'unavailable: expected one of "ok", "ended", "misplaced" as the append script\'s status, but Redis answered "maybe"',
  );
  expect(refusal(() => parseAppendReply(["ok", "0", "0", "9-0"]))).toContain("expected an array as the reply of the appended events' cursors");
});

test("select: the expected last cursor and switch count, then the snapshot write with its dropped ids fields; switched, unknown, active, retry", () => {
  const cut: SnapshotWrite = { ...write, dropped: ["a2", "tc:call1"] };
  expect(selectArguments({ expectLast: "5-0", selection: "", snapshot: cut })).toEqual([
    "5-0",
    "",
    "3",
    "4-0",
    "4",
    "{c}",
    "2",
    "1",
    "=",
    "m2",
    "{m}",
    "a2",
    "tc:call1",
  ]);
  expect(parseSelectReply(["ok", ["row"]])).toEqual({ kind: "switched", row: ["row"] });
  expect(["unknown", "active", "queue-pending", "retry"].map((status) => parseSelectReply([status]))).toEqual([
    { kind: "unknown" },
    { kind: "active" },
    { kind: "queue-pending" },
    { kind: "retry" },
  ]);
  expect(refusal(() => parseSelectReply(["moved"]))).toBe(
    'unavailable: expected one of "ok", "unknown", "active", "queue-pending", "retry" as the select script\'s status, but Redis answered "moved"',
  );
});

test("renew and notice", () => {
  expect(renewArguments("r1", 1000, 5000)).toEqual(["r1", "1000", "5000"]);
  expect(parseRenewReply(["1", "0", "4"])).toEqual({ live: true, stopRequested: false, queueVersion: "4" });
  expect(parseRenewReply(["1", "1"])).toEqual({ live: true, stopRequested: true, queueVersion: "0" });
  expect(parseRenewReply(["0", "0"])).toEqual({ live: false, stopRequested: false, queueVersion: "0" });
  expect(parseNoticeReply(["unknown"])).toEqual({ kind: "unknown" });
  expect(parseNoticeReply(["idle"])).toEqual({ kind: "idle" });
  expect(parseNoticeReply(["abandoned"])).toEqual({ kind: "abandoned" });
  expect(parseNoticeReply(["live", "r1", "250"])).toEqual({ kind: "live", runId: "r1", remaining: 250 });
  expect(refusal(() => parseNoticeReply(["live", "r1", "soon"]))).toContain("expected a number as the lease's remaining milliseconds");
});

test("read: the cursor or empty; unknown, resume, snapshot", () => {
  expect(readArguments(undefined, 1000)).toEqual(["", "1000", "", "0"]);
  expect(readArguments("3-0", 10, 50, true)).toEqual(["3-0", "10", "50", "1"]);
  expect(parseReadReply(["unknown"])).toEqual({ kind: "unknown" });
  expect(parseReadReply(["resume", "", ["3-0", []], []])).toEqual({ kind: "resume", live: undefined, at: ["3-0", []], entries: [] });
  expect(parseReadReply(["snapshot", "r2", "4-0", "4", "{j}", [], "", []])).toEqual({
    kind: "snapshot",
    live: "r2",
    cursor: "4-0",
    seq: 4,
    json: "{j}",
    entries: [],
    messageCount: undefined,
    messages: [],
    selection: "",
    tree: "",
    queueLength: 0,
    queue: [],
  });
  expect(parseReadReply(["snapshot", "", "4-0", "4", "{j}", [], "9", ["{m}"], "3"])).toMatchObject({ selection: "3" });
  expect(parseReadReply(["snapshot", "", "4-0", "4", "{j}", [], "9", ["{m}"], "", "", "2", ["{q1}", "{q2}"]])).toMatchObject({
    queueLength: 2,
    queue: ["{q1}", "{q2}"],
  });
  expect(parseReadReply(["snapshot", "", "4-0", "4", "{j}", [], "9", ["{m}"]])).toMatchObject({ messageCount: 9, messages: ["{m}"] });
  expect(refusal(() => parseReadReply(["snapshot", "", null, "4", "{j}", []]))).toContain(
    "expected a string as the snapshot's cursor, but Redis answered null",
  );
});

test("stop and checkpoint", () => {
  expect(["stopping", "ended", "unknown"].map(parseStopReply)).toEqual(["stopping", "ended", "unknown"]);
  expect(refusal(() => parseStopReply("gone"))).toContain(
    'expected one of "stopping", "ended", "unknown" as the stop script\'s answer, but Redis answered "gone"',
  );
  expect(checkpointArguments(write)).toEqual(["3", "4-0", "4", "{c}", "2", "1", "=", "m2", "{m}"]);
  expect(["kept", "old", "stale", "none"].map(parseCheckpointReply)).toEqual(["kept", "old", "stale", "none"]);
  expect(refusal(() => parseCheckpointReply("1"))).toContain('expected one of "kept", "old", "stale", "none"');
});

test("row, history", () => {
  expect(parseRowReply(["unknown"])).toBeUndefined();
  expect(parseRowReply(["ok", ["t"]])).toEqual(["t"]);
  expect(parseHistoryReply(["page", ["{m}"], "1"])).toEqual({ kind: "page", messages: ["{m}"], hasOlder: true });
  expect(parseHistoryReply(["missing"])).toEqual({ kind: "missing" });
  expect(parseHistoryReply(["unknown"])).toEqual({ kind: "unknown" });
});
