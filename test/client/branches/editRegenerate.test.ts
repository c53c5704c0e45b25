/**
 * `Session.edit`, `regenerate`, `branches` over real HTTP (docs/client.md#branches): a handler that
 * owns the history (memory store) on loopback; what the agent saw, the path and the groups the
 * session shows, and what the server keeps.
 */
import { closeAll } from "../../http/durable/support";
import { kinds, errorsOf } from "../support";
import { idsOf, run, serveBranches, sessionOn } from "./support";

afterEach(closeAll);

/** Two turns on `threadId`: u1 → a1, u2 → a2 (ids `m-1`, `a-<runId>` …). */
async function twoTurns(url: string, threadId = "t") {
  const session = sessionOn(url, threadId);
  await run(session.send("first"));
  await run(session.send("second"));
  return session;
}

test("edit makes a sibling of the user message with a new id: the agent sees the path up to its predecessor and the edited message", async () => {
  const { url, seen, store } = await serveBranches();
  const session = await twoTurns(url);
  const [u1, a1, u2, a2] = idsOf(session);
  const updates = await run(session.edit(u2, "second, edited"));
  expect(kinds(updates)[0]).toBe("messages");
  expect(errorsOf(updates)).toEqual([]);
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });

  const last = seen[seen.length - 1];
  const edited = session.messages[2];
  expect(edited).toMatchObject({ role: "user", content: "second, edited" });
  expect(edited.id).not.toBe(u2);
  expect(last.messages).toEqual([`${u1}:first`, `${a1}:answer to first`, `${edited.id}:second, edited`]);
  expect(last.state).toEqual({ turns: 1 }); // the state the edited question's run started from
  expect(idsOf(session)).toEqual([u1, a1, edited.id, `a-${last.runId}`]);
  expect(session.state).toEqual({ turns: 2 });

  // the old question is a sibling: its group follows a1
  expect(session.branches(edited.id)).toEqual({ index: 1, count: 2, siblingIds: [u2, edited.id] });
  expect(session.branchGroups).toEqual([{ after: a1, selected: 1, siblingIds: [u2, edited.id] }]);
  const read = await store.read("t", undefined, { owner: "alice" });
  expect(read?.kind === "snapshot" && read.snapshot.branches?.groups).toEqual([{ after: a1, selected: 1, siblingIds: [u2, edited.id] }]);
  void a2;
});

test("regenerate makes a sibling answer from the state before the question's run; branches() answers for a user message and a message inside an answer", async () => {
  const { url, seen } = await serveBranches();
  const session = await twoTurns(url);
  const [u1, a1, u2, a2] = idsOf(session);
  const updates = await run(session.regenerate());
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  const last = seen[seen.length - 1];
  expect(last.messages).toEqual([`${u1}:first`, `${a1}:answer to first`, `${u2}:second`]);
  expect(last.state).toEqual({ turns: 1 });
  const a2b = `a-${last.runId}`;
  expect(idsOf(session)).toEqual([u1, a1, u2, a2b]);
  expect(session.branches(a2b)).toEqual({ index: 1, count: 2, siblingIds: [a2, a2b] });
  expect(session.branches(u2)).toEqual({ index: 0, count: 1, siblingIds: [u2] });
  expect(session.branches(a1)).toEqual({ index: 0, count: 1, siblingIds: [a1] });

  // regenerate the first answer, named by a message inside it: everything after u1 goes
  await run(session.regenerate(a1));
  const third = seen[seen.length - 1];
  expect(third.messages).toEqual([`${u1}:first`]);
  expect(third.state).toEqual(seen[0].state); // the state the first run started from
  expect(idsOf(session)).toEqual([u1, `a-${third.runId}`]);
  expect(session.branches(`a-${third.runId}`)).toEqual({ index: 1, count: 2, siblingIds: [a1, `a-${third.runId}`] });
  expect(session.branchGroups).toEqual([{ after: u1, selected: 1, siblingIds: [a1, `a-${third.runId}`] }]);
});

test("edit and regenerate refuse what they cannot do, with a config error naming it, and change nothing", async () => {
  const { url } = await serveBranches();
  const session = await twoTurns(url);
  const before = session.messages;
  const [, a1] = idsOf(session);
  const notUser = await run(session.edit(a1, "x"));
  expect(errorsOf(notUser)[0]).toMatchObject({ kind: "config", message: expect.stringContaining(`"${a1}" is a assistant message`) });
  const unknown = await run(session.regenerate("nope"));
  expect(errorsOf(unknown)[0]).toMatchObject({ kind: "config", message: expect.stringContaining('"nope" is not one') });
  expect(session.messages).toBe(before);
});
