/**
 * Our Session as a client of the branch property tests (docs/threads.md#edit-and-regenerate): it
 * names its forks (an edit is a new user message with a new id, a regenerate posts nothing new),
 * a switch is `selectBranch`, and it reports each message's siblings (`branches(id)`). Its own
 * checks: the sibling position of every path message, a fresh Session's `connect()` rebuilding
 * the same path, state and positions, and `loadOlder` pages walking the path.
 */
import { lastValueFrom, toArray, type Observable } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/thread/Update";
import { counter, endOf, errorsOf } from "../../client/support";
import { as } from "../threads/support";
import { plain, stateOrEmpty, type BranchModel } from "./branchModel";
import type { BranchOp } from "./branchOps";
import type { BranchClient } from "./branchRunner";
import { USER } from "./branchServer";

/** A Session on `threadId` of the handler at `url`, as every test session is made. */
function newSession(url: string, threadId: string, prefix: string): Session {
  return new Session(new HttpTransport(url, { headers: as(USER) }), { threadId, newId: counter(prefix) });
}

/** Runs `updates$` to its end; it must end in success without an error update. */
async function ranWell(updates$: Observable<Update<unknown>>, what: string): Promise<void> {
  const updates = await lastValueFrom(updates$.pipe(toArray()));
  const errors = errorsOf(updates);
  const end = endOf(updates);
  if (errors.length > 0 || end.kind !== "success") throw new Error(`expected ${what} to succeed, but it ended ${end.kind}: ${JSON.stringify(errors)}`);
}

/** What `session` shows, with the sibling position of each path message: compared with the model as one value. */
function shown(session: Session) {
  return {
    messages: session.messages.map(plain),
    state: stateOrEmpty(session.rawState),
    positions: session.messages.map((message) => session.branches(message.id)),
    groups: session.branchGroups,
  };
}

/** What the model predicts `shown` to be. */
function predicted(model: BranchModel) {
  return {
    messages: model.messages(),
    state: model.state(),
    positions: model.messages().map((message) => model.position(message.id)),
    groups: model.groups(),
  };
}

/**
 * Our Session on `threadId` of the handler at `url`, as the runner drives it.
 *
 * @example
 * await playSeed(seed, STEPS, [{ server, client: sessionClient(server.url, "t") }]);
 */
export function sessionClient(url: string, threadId: string): BranchClient {
  const session = newSession(url, threadId, "s");
  /** A fresh Session (a reload) for `check`, closed after it. */
  const withFresh = async (step: number, check: (fresh: Session) => Promise<void>): Promise<void> => {
    const fresh = newSession(url, threadId, `fresh${step}`);
    try {
      await check(fresh);
    } finally {
      fresh.close();
    }
  };
  return {
    name: "our Session",
    async apply(op: BranchOp, step: number): Promise<string | undefined> {
      switch (op.kind) {
        case "send": {
          const id = `u${step}`;
          await ranWell(session.send({ id, role: "user", content: op.content }), `send ${id}`);
          return id;
        }
        case "edit": {
          await ranWell(session.edit(op.userId, op.content), `edit ${op.userId}`);
          const user = session.messages.filter((message) => message.role === "user").at(-1);
          if (user === undefined || user.content !== op.content) throw new Error(`expected the edited message "${op.content}" last on the Session's path`);
          return user.id;
        }
        case "regenerate":
          await ranWell(session.regenerate(op.userId), `regenerate ${op.userId}`);
          return undefined;
        case "switch":
          await session.selectBranch(op.messageId, op.index);
          return undefined;
        case "loadOlder":
          return undefined; // a fresh Session pages the path in `expectMatches`
      }
    },
    view: () => ({ messages: session.messages.map(plain), state: session.rawState }),
    async expectMatches(model: BranchModel, op: BranchOp, step: number): Promise<void> {
      expect(shown(session)).toEqual(predicted(model));
      await withFresh(step, async (reloaded) => {
        await ranWell(reloaded.connect(), "a fresh Session's connect()");
        expect(shown(reloaded)).toEqual(predicted(model));
      });
      if (op.kind !== "loadOlder") return;
      await withFresh(step, async (paging) => {
        await ranWell(paging.connect({ limit: op.limit }), `a fresh Session's connect({ limit: ${op.limit} })`);
        for (let pages = 0; paging.hasOlder; pages++) {
          if (pages > model.messages().length) throw new Error(`expected loadOlder to reach the thread's start within ${pages} pages`); // a guard against a loop, not a timer
          await paging.loadOlder(op.limit);
        }
        expect(shown(paging)).toEqual(predicted(model));
      });
    },
    close: () => session.close(),
  };
}
