/** The store scripts' argument builders and reply parsers (pure); what the Lua does is tested on a real Redis (test/redis/live). */
import { appendArguments, appendScript, parseAppendReply } from "../../src/redis/scripts/appendBatch";
import { beginArguments, beginScript, parseBeginReply } from "../../src/redis/scripts/beginRun";
import { checkpointArguments, checkpointScript, parseCheckpointReply } from "../../src/redis/scripts/checkpointSnapshot";
import { noticeScript, parseNoticeReply, parseRenewReply, renewArguments, renewScript } from "../../src/redis/scripts/leaseScripts";
import { contextArguments, PRELUDE } from "../../src/redis/scripts/prelude";
import { parseReadReply, readArguments, readScript } from "../../src/redis/scripts/readThread";
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
  for (const script of [appendScript, beginScript, checkpointScript, noticeScript, renewScript, readScript, stopScript]) {
    expect(script.source.startsWith(PRELUDE)).toBe(true);
    expect(script.source.slice(PRELUDE.length)).not.toMatch(/ARGV\[[1-4]\]/);
  }
  expect(contextArguments({ now: "250", channel: "c", threadId: "t", ttl: 60_000 })).toEqual(["250", "c", "t", "60000"]);
});

test("begin: arguments in ARGV order; started, active, retry", () => {
  const request = { runId: "r1", startedJson: "{s}", snapshotJson: "{t}", expectLast: "5-0", lease: 1000, leaseTtl: 2000, maxRuns: 3 };
  expect(beginArguments(request)).toEqual(["r1", "{s}", "{t}", "5-0", "1000", "2000", "3"]);
  expect(parseBeginReply(["ok", "6-0", "12"])).toEqual({ kind: "started", cursor: "6-0", seq: 12 });
  expect(parseBeginReply(["active", "r0"])).toEqual({ kind: "active", liveRunId: "r0" });
  expect(parseBeginReply(["retry"])).toEqual({ kind: "retry" });
  expect(refusal(() => parseBeginReply(["maybe"]))).toBe(
    'unavailable: expected one of "ok", "active", "retry" as the begin script\'s status, but Redis answered "maybe"',
  );
});

test("append: the checkpoint (or three empty strings), the bound, the first sequence number, then type/JSON pairs; logged, ended or misplaced", () => {
  const events = [
    { type: "STEP_STARTED", json: "{a}" },
    { type: "STEP_FINISHED", json: "{b}" },
  ];
  expect(appendArguments({ runId: "r1", lease: 1000, leaseTtl: 1000, terminal: false, maxEvents: 50, firstSeq: 3, events })).toEqual([
    "r1",
    "1000",
    "1000",
    "0",
    "",
    "",
    "",
    "50",
    "3",
    "STEP_STARTED",
    "{a}",
    "STEP_FINISHED",
    "{b}",
  ]);
  expect(
    appendArguments({
      runId: "r1",
      lease: 1,
      leaseTtl: 2,
      terminal: true,
      maxEvents: 9,
      checkpoint: { cursor: "4-0", seq: 4, json: "{c}" },
      firstSeq: 5,
      events: [],
    }),
  ).toEqual(["r1", "1", "2", "1", "4-0", "4", "{c}", "9", "5"]);
  expect(parseAppendReply(["ok", "1", "7", ["9-0", "9-1"]])).toEqual({ kind: "logged", stopRequested: true, firstSeq: 7, cursors: ["9-0", "9-1"] });
  expect(parseAppendReply(["ok", "0", "0", []])).toEqual({ kind: "logged", stopRequested: false, firstSeq: 0, cursors: [] });
  expect(parseAppendReply(["ended", "abandoned"])).toEqual({ kind: "ended", abandoned: true });
  expect(parseAppendReply(["ended", "over"])).toEqual({ kind: "ended", abandoned: false });
  expect(parseAppendReply(["misplaced", "12"])).toEqual({ kind: "misplaced", next: 12 });
  expect(refusal(() => parseAppendReply(["maybe"]))).toBe(
    'unavailable: expected one of "ok", "ended", "misplaced" as the append script\'s status, but Redis answered "maybe"',
  );
  expect(refusal(() => parseAppendReply(["ok", "0", "0", "9-0"]))).toContain("expected an array as the reply of the appended events' cursors");
});

test("renew and notice", () => {
  expect(renewArguments("r1", 1000, 5000)).toEqual(["r1", "1000", "5000"]);
  expect(parseRenewReply(["1", "0"])).toEqual({ live: true, stopRequested: false });
  expect(parseRenewReply(["1", "1"])).toEqual({ live: true, stopRequested: true });
  expect(parseRenewReply(["0", "0"])).toEqual({ live: false, stopRequested: false });
  expect(parseNoticeReply(["unknown"])).toEqual({ kind: "unknown" });
  expect(parseNoticeReply(["idle"])).toEqual({ kind: "idle" });
  expect(parseNoticeReply(["abandoned"])).toEqual({ kind: "abandoned" });
  expect(parseNoticeReply(["live", "r1", "250"])).toEqual({ kind: "live", runId: "r1", remaining: 250 });
  expect(refusal(() => parseNoticeReply(["live", "r1", "soon"]))).toContain("expected a number as the lease's remaining milliseconds");
});

test("read: the cursor or empty; unknown, resume, snapshot", () => {
  expect(readArguments(undefined, 1000)).toEqual(["", "1000"]);
  expect(readArguments("3-0", 10)).toEqual(["3-0", "10"]);
  expect(parseReadReply(["unknown"])).toEqual({ kind: "unknown" });
  expect(parseReadReply(["resume", "", ["3-0", []], []])).toEqual({ kind: "resume", live: undefined, at: ["3-0", []], entries: [] });
  expect(parseReadReply(["snapshot", "r2", "4-0", "4", "{j}", []])).toEqual({ kind: "snapshot", live: "r2", cursor: "4-0", seq: 4, json: "{j}", entries: [] });
  expect(refusal(() => parseReadReply(["snapshot", "", null, "4", "{j}", []]))).toContain(
    "expected a string as the snapshot's cursor, but Redis answered null",
  );
});

test("stop and checkpoint", () => {
  expect(["stopping", "ended", "unknown"].map(parseStopReply)).toEqual(["stopping", "ended", "unknown"]);
  expect(refusal(() => parseStopReply("gone"))).toContain(
    'expected one of "stopping", "ended", "unknown" as the stop script\'s answer, but Redis answered "gone"',
  );
  expect(checkpointArguments({ cursor: "4-0", seq: 4, json: "{j}" })).toEqual(["4-0", "4", "{j}"]);
  expect([parseCheckpointReply("1"), parseCheckpointReply("0")]).toEqual([true, false]);
});
