/**
 * Property (docs/threads.md#the-tree): any mix of turns, resumed answers, regenerates, edits and
 * switches on the store's fold keeps two promises. Every sibling starts from the state its user
 * message's run started from (a model keeps that state per user message), whatever switches came
 * between; and a switch away and back gives the thread exactly as it was.
 */
import fc from "fast-check";
import { forkMetadata } from "../../../src/protocol/branchMeta";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { ThreadFold } from "../../../src/thread/ThreadFold";
import { fuzzParameters } from "../../support/fuzz";

type Op =
  | { readonly kind: "turn"; readonly setsState: boolean; readonly answers: boolean }
  | { readonly kind: "resume"; readonly setsState: boolean }
  | { readonly kind: "regenerate"; readonly pick: number; readonly setsState: boolean }
  | { readonly kind: "edit"; readonly pick: number; readonly setsState: boolean }
  | { readonly kind: "select"; readonly pick: number; readonly index: number };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("turn" as const), setsState: fc.boolean(), answers: fc.boolean() }),
  fc.record({ kind: fc.constant("resume" as const), setsState: fc.boolean() }),
  fc.record({ kind: fc.constant("regenerate" as const), pick: fc.nat(), setsState: fc.boolean() }),
  fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), setsState: fc.boolean() }),
  fc.record({ kind: fc.constant("select" as const), pick: fc.nat(), index: fc.nat() }),
);

/** A thread driven through its fold, with the model: the state each user message's run started from. */
class Driver {
  readonly fold = new ThreadFold("t");
  readonly startedFrom = new Map<string, unknown>();
  private seq = 0;
  private runs = 0;

  path(): readonly Message[] {
    return this.fold.snapshot()?.messages ?? [];
  }

  state(): unknown {
    return this.fold.snapshot()?.state ?? {};
  }

  /** One run: its RUN_STARTED (with the fork marker after `forkAfter`, when given), its input's user message, an answer (unless it stops before one), maybe a new state. */
  run(user: Message | undefined, setsState: boolean, forkAfter?: string | null, answers = true): void {
    const runId = `r${++this.runs}`;
    const marker = forkAfter === undefined ? undefined : this.fold.forkMarker(forkAfter);
    const started = ev.runStarted("t", runId, {
      input: runAgentInput("t", runId, { messages: user === undefined ? [] : [user] }),
      ...(marker === undefined ? {} : { metadata: forkMetadata(marker) }),
    });
    this.apply(started);
    if (user !== undefined) this.startedFrom.set(user.id, this.state());
    const answer = `a${this.runs}`;
    if (answers) this.apply(ev.textMessageStart(answer), ev.textMessageContent(answer, "ok"), ev.textMessageEnd(answer));
    if (setsState) this.apply(ev.stateSnapshot({ run: runId }));
    this.apply(ev.runFinished("t", runId));
  }

  newUser(): Message {
    return { id: `u${++this.seq}`, role: "user", content: `q${this.seq}` };
  }

  private apply(...events: Event[]): void {
    for (const event of events) this.fold.apply(event, `c${++this.seq}`);
  }
}

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

test("siblings start from their user message's starting state, and a switch away and back changes nothing", () => {
  fc.assert(
    fc.property(fc.array(opArbitrary, { minLength: 1, maxLength: 30 }), (ops) => {
      const driver = new Driver();
      driver.run(driver.newUser(), true);
      for (const op of ops) {
        const path = driver.path();
        const users = path.flatMap((message, position) => (message.role === "user" ? [{ message, position }] : []));
        switch (op.kind) {
          case "turn":
            driver.run(driver.newUser(), op.setsState, undefined, op.answers);
            break;
          case "resume": // a run that adds no user message (a resume, a follow-up): a checkpoint inside an answer, or right after its question
            driver.run(undefined, op.setsState);
            break;
          case "regenerate": {
            const { message } = users[op.pick % users.length];
            const expected = driver.startedFrom.get(message.id);
            if (driver.fold.forkMarker(message.id) === undefined) break; // the path ends there: nothing to regenerate
            expect(driver.fold.forkState(message.id)).toEqual(expected);
            driver.run(undefined, op.setsState, message.id);
            break;
          }
          case "edit": {
            const { message, position } = users[op.pick % users.length];
            const after = position === 0 ? null : path[position - 1].id;
            const expected = driver.startedFrom.get(message.id);
            expect(driver.fold.forkState(after, "user")).toEqual(expected);
            const edited = driver.newUser();
            driver.run(edited, op.setsState, after);
            expect(driver.startedFrom.get(edited.id)).toEqual(expected);
            break;
          }
          case "select": {
            const groups = driver.fold.groups();
            if (groups.length === 0) break;
            const group = groups[op.pick % groups.length];
            const shownId = group.siblingIds[group.selected];
            const index = op.index % group.siblingIds.length;
            const before = json(driver.fold.snapshot());
            const result = driver.fold.select(shownId, index);
            expect(result).toBe(index === group.selected ? "unchanged" : "switched");
            if (result !== "switched") break;
            const shown = driver.fold.groups().find((candidate) => candidate.after === group.after);
            expect(shown?.selected).toBe(index);
            // away and back: exactly as it was; then away again, to go on from the other sibling
            expect(driver.fold.select(group.siblingIds[index], group.selected)).toBe("switched");
            expect(json(driver.fold.snapshot())).toEqual(before);
            expect(driver.fold.select(shownId, index)).toBe("switched");
            break;
          }
          default: {
            const unexpected: never = op;
            throw new Error(`unexpected op ${JSON.stringify(unexpected)}`);
          }
        }
        // every user message of the path: an edit of it, or a new answer to it, would start from the state its run started from
        const now = driver.path();
        now.forEach((message, position) => {
          if (message.role !== "user") return;
          expect(driver.fold.forkState(position === 0 ? null : now[position - 1].id, "user")).toEqual(driver.startedFrom.get(message.id));
          if (position < now.length - 1) expect(driver.fold.forkState(message.id, "answer")).toEqual(driver.startedFrom.get(message.id));
        });
        // the groups name the path's own messages where the path reaches them
        for (const group of driver.fold.groups()) {
          const at = group.after === null ? 0 : now.findIndex((message) => message.id === group.after) + 1;
          expect(at).toBeGreaterThanOrEqual(group.after === null ? 0 : 1);
          expect(group.siblingIds[group.selected]).toBe(now[at]?.id ?? "");
        }
      }
    }),
    fuzzParameters(150),
  );
});
