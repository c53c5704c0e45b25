/**
 * The store's fold with branches (docs/threads.md#the-tree): RUN_STARTED fork markers fork it, a
 * switch shows another sibling, and a snapshot's JSON (decoded with `ThreadSnapshot`, whose
 * recursive BranchTree codecs must read what the fold wrote) restores a fold that goes on exactly
 * as the uncut one.
 */
import * as E from "fp-ts/Either";
import { forkMetadata } from "../../src/protocol/branchMeta";
import { ev, outcome, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import { ThreadFold } from "../../src/thread/ThreadFold";
import { ThreadSnapshot } from "../../src/thread/ThreadSnapshot";
import { BranchTree, Fork, SavedBranch } from "../../src/thread/branches/BranchTree";
import { answer, user } from "./branches/support";

/** The events of one run: RUN_STARTED with `input` (and a fork marker asked of `fold` when `forkAfter` is given), an answer, a state, the end. */
function runEvents(
  fold: ThreadFold,
  runId: string,
  input: readonly Message[],
  said: string,
  options: { forkAfter?: string | null; state?: unknown; end?: Event } = {},
): Event[] {
  const marker = options.forkAfter === undefined ? undefined : fold.forkMarker(options.forkAfter);
  if (options.forkAfter !== undefined && marker === undefined) throw new Error(`expected a fork after ${String(options.forkAfter)}`);
  const events: Event[] = [
    ev.runStarted("t", runId, {
      input: runAgentInput("t", runId, { messages: [...input] }),
      ...(marker === undefined ? {} : { metadata: forkMetadata(marker) }),
    }),
  ];
  if (marker !== undefined) events.push(ev.stateSnapshot(fold.forkState(options.forkAfter ?? null)));
  events.push(ev.textMessageStart(said), ev.textMessageContent(said, `text of ${said}`), ev.textMessageEnd(said));
  if (options.state !== undefined) events.push(ev.stateSnapshot(options.state));
  events.push(options.end ?? ev.runFinished("t", runId));
  return events;
}

/** A fold and every event it folded with its cursor; `step` folds more. */
function recorder() {
  const fold = new ThreadFold("t");
  const log: { event: Event; cursor: string }[] = [];
  const step = (events: readonly Event[]) => {
    for (const event of events) {
      const cursor = `c${log.length}`;
      log.push({ event, cursor });
      fold.apply(event, cursor);
    }
  };
  return { fold, log, step };
}

const ids = (fold: ThreadFold) => fold.snapshot()?.messages.map((message) => message.id);

describe("ThreadFold with fork markers", () => {
  test("a regenerate, an edit, switches: path, state, interrupts, pending calls and groups follow the selected sibling", () => {
    const { fold, step } = recorder();
    step(runEvents(fold, "r1", [user("u1")], "a1", { state: { n: 1 } }));
    step(
      runEvents(fold, "r2", [user("u2")], "a2", {
        state: { n: 2 },
        end: ev.runFinished("t", "r2", { outcome: outcome.interrupt([{ id: "i1", reason: "ok?" }]) }),
      }),
    );
    expect(fold.forkMarker("a2")).toBeUndefined();
    expect(fold.forkState("u2")).toEqual({ n: 1 });

    step(
      runEvents(fold, "r3", [user("u1"), answer("a1"), user("u2")], "a2b", {
        forkAfter: "u2",
        end: ev.runFinished("t", "r3", { outcome: { type: "success", pendingToolCallIds: ["c1"] } }),
      }),
    );
    let snapshot = fold.snapshot();
    expect(ids(fold)).toEqual(["u1", "a1", "u2", "a2b"]);
    expect(snapshot?.state).toEqual({ n: 1 });
    expect(snapshot?.interrupts).toEqual([]);
    expect(snapshot?.pendingToolCallIds).toEqual(["c1"]);
    expect(fold.groups()).toEqual([{ after: "u2", selected: 1, siblingIds: ["a2", "a2b"] }]);
    expect(snapshot?.branches?.groups).toEqual(fold.groups());

    step(runEvents(fold, "r4", [user("u1"), answer("a1"), user("u2e")], "a3", { forkAfter: "a1", state: { n: 4 } }));
    expect(ids(fold)).toEqual(["u1", "a1", "u2e", "a3"]);
    expect(fold.groups()).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2e"] }]);

    const cursor = fold.snapshot()?.cursor;
    expect(fold.select("u2e", 0)).toBe("switched");
    snapshot = fold.snapshot();
    expect(snapshot?.cursor).toBe(cursor); // a switch logs no event
    expect(ids(fold)).toEqual(["u1", "a1", "u2", "a2b"]);
    expect(snapshot?.pendingToolCallIds).toEqual(["c1"]);
    expect(fold.groups()).toEqual([
      { after: "a1", selected: 0, siblingIds: ["u2", "u2e"] },
      { after: "u2", selected: 1, siblingIds: ["a2", "a2b"] },
    ]);
    expect(fold.select("a2b", 0)).toBe("switched");
    snapshot = fold.snapshot();
    expect(snapshot?.interrupts).toEqual([{ id: "i1", reason: "ok?" }]);
    expect(snapshot?.state).toEqual({ n: 2 });
    expect(snapshot?.pendingToolCallIds).toBeUndefined();
    expect(fold.select("u2", 1)).toBe("switched");
    expect(fold.snapshot()?.state).toEqual({ n: 4 });
    expect(fold.select("u2e", 5)).toBe("no-such-sibling");
    expect(fold.select("nowhere", 0)).toBe("unknown-message");
    expect(fold.select("u2e", 1)).toBe("unchanged");
  });

  test("a fork while a sibling's run just started: its id in the groups is '' until it sends its first message", () => {
    const { fold, step } = recorder();
    step(runEvents(fold, "r1", [user("u1")], "a1"));
    const marker = fold.forkMarker("u1");
    if (marker === undefined) throw new Error("expected a marker");
    step([ev.runStarted("t", "r2", { metadata: forkMetadata(marker) })]);
    expect(fold.groups()).toEqual([{ after: "u1", selected: 1, siblingIds: ["a1", ""] }]);
    expect(fold.snapshot()?.branches?.groups).toEqual([{ after: "u1", selected: 1, siblingIds: ["a1", ""] }]);
  });

  test("the snapshot's JSON decodes with ThreadSnapshot (nested SavedBranch and Fork included) to what the fold wrote", () => {
    const { fold, step } = recorder();
    step(runEvents(fold, "r1", [user("u1")], "a1", { state: { n: 1 } }));
    step(runEvents(fold, "r2", [user("u2")], "a2", { state: { n: 2 } }));
    step(runEvents(fold, "r3", [], "a2b", { forkAfter: "u2", state: { n: 3 } }));
    step(runEvents(fold, "r4", [user("u1e")], "b1", { forkAfter: null }));
    const snapshot = fold.snapshot();
    if (snapshot?.branches === undefined) throw new Error("expected branches");
    const [top] = snapshot.branches.forks;
    const frozen = top.branches[0];
    expect(frozen?.forks).toHaveLength(1); // u2's group lives inside the frozen first sibling
    const json: unknown = JSON.parse(JSON.stringify(snapshot));
    const decoded = ThreadSnapshot.decode(json);
    if (E.isLeft(decoded)) throw new Error(`expected the snapshot's JSON to decode: ${JSON.stringify(decoded.left[0]?.context.map((entry) => entry.key))}`);
    expect(decoded.right).toEqual(snapshot);
    expect(E.isRight(BranchTree.decode(JSON.parse(JSON.stringify(snapshot.branches))))).toBe(true);
    expect(E.isRight(Fork.decode(JSON.parse(JSON.stringify(top))))).toBe(true);
    expect(E.isRight(SavedBranch.decode(JSON.parse(JSON.stringify(frozen))))).toBe(true);
    // and a malformed nested sibling is refused, not read as an empty tree
    const broken = JSON.parse(JSON.stringify(snapshot)) as { branches: { forks: { branches: ({ forks: { at: unknown }[] } | null)[] }[] } };
    const nested = broken.branches.forks[0].branches[0];
    if (nested === null) throw new Error("expected a frozen sibling");
    nested.forks[0].at = "two";
    expect(E.isLeft(ThreadSnapshot.decode(broken))).toBe(true);
  });

  test("restored from its JSON at any event, the fold goes on exactly as the uncut one, switches included", () => {
    const script = (step: (events: readonly Event[]) => void, fold: () => ThreadFold, select: (messageId: string, index: number) => void) => {
      step(runEvents(fold(), "r1", [user("u1")], "a1", { state: { n: 1 } }));
      step(runEvents(fold(), "r2", [user("u2")], "a2", { state: { n: 2 } }));
      step(runEvents(fold(), "r3", [user("u2")], "a2b", { forkAfter: "u2", state: { n: 3 } }));
      step(runEvents(fold(), "r4", [user("u2e")], "a3", { forkAfter: "a1" }));
      select("u2e", 0);
      step(runEvents(fold(), "r5", [user("u3")], "a4", { state: { n: 5 } }));
      step(runEvents(fold(), "r6", [user("u3")], "a4b", { forkAfter: "u3" }));
      select("a2b", 0);
      step(runEvents(fold(), "r7", [user("u4")], "a5"));
    };
    // the uncut fold, and every (event count) at which a snapshot is taken
    const uncut = recorder();
    script(
      uncut.step,
      () => uncut.fold,
      (messageId, index) => expect(uncut.fold.select(messageId, index)).toBe("switched"),
    );
    const total = uncut.log.length;
    for (let cut = 1; cut < total; cut++) {
      let fold = new ThreadFold("t");
      let folded = 0;
      const step = (events: readonly Event[]) => {
        for (const event of events) {
          fold.apply(event, `c${folded}`);
          folded += 1;
          if (folded === cut) {
            const decoded = ThreadSnapshot.decode(JSON.parse(JSON.stringify(fold.snapshot())));
            if (E.isLeft(decoded)) throw new Error(`expected the snapshot at ${cut} to decode`);
            fold = ThreadFold.restore(decoded.right);
          }
        }
      };
      script(
        step,
        () => fold,
        (messageId, index) => expect(fold.select(messageId, index)).toBe("switched"),
      );
      expect(JSON.parse(JSON.stringify(fold.snapshot()))).toEqual(JSON.parse(JSON.stringify(uncut.fold.snapshot())));
    }
    expect(ids(uncut.fold)).toEqual(["u1", "a1", "u2", "a2", "u4", "a5"]);
    expect(uncut.fold.groups()).toEqual([
      { after: "a1", selected: 0, siblingIds: ["u2", "u2e"] },
      { after: "u2", selected: 0, siblingIds: ["a2", "a2b"] },
    ]);
  });
});
