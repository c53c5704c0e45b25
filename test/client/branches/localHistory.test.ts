/**
 * Edit and regenerate where the client's history is the history (docs/client.md#branches): a
 * handler without a store over real HTTP; and a fork the server refuses, which puts the path back.
 */
import { createHandler } from "../../../src/server/http/createHandler";
import { serve, type Served } from "../../../src/node/serve";
import { closeAll, serveStored } from "../../http/durable/support";
import { errorsOf } from "../support";
import { identifyByHeader } from "../../http/threads/support";
import { idsOf, recordingAgent, run, sessionOn, type Seen } from "./support";

let plain: Served | undefined;
afterEach(async () => {
  await plain?.close();
  plain = undefined;
  await closeAll();
});

test("without a server that owns the history, edit and regenerate cut the path locally and post it whole; there is no tree", async () => {
  const seen: Seen[] = [];
  plain = await serve(createHandler(recordingAgent(seen)));
  const session = sessionOn(plain.url, "t");
  await run(session.send("first"));
  await run(session.send("second"));
  const [u1, a1, u2] = idsOf(session);

  const edited = await run(session.edit(u2, "second, edited"));
  expect(edited[edited.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  const editRun = seen[seen.length - 1];
  const newId = idsOf(session)[2];
  expect(newId).not.toBe(u2);
  expect(editRun.messages).toEqual([`${u1}:first`, `${a1}:answer to first`, `${newId}:second, edited`]);
  expect(idsOf(session)).toEqual([u1, a1, newId, `a-${editRun.runId}`]);
  expect(session.branches(newId)).toEqual({ index: 0, count: 1, siblingIds: [newId] });
  expect(session.branchGroups).toEqual([]);

  await run(session.regenerate());
  const again = seen[seen.length - 1];
  expect(again.messages).toEqual([`${u1}:first`, `${a1}:answer to first`, `${newId}:second, edited`]);
  expect(again.state).toEqual({ turns: 3 }); // the session's own state: without a tree there is no earlier one to go back to
  expect(idsOf(session)).toEqual([u1, a1, newId, `a-${again.runId}`]);
  expect(session.branches(`a-${again.runId}`).count).toBe(1);
  // nothing to follow on such a server
  expect(session.following).toBe(false);
});

test("an edit the server refuses before recording anything puts the path, its groups and the old message back; done names the edit as unsent", async () => {
  const seen: Seen[] = [];
  let refuse = false;
  const { url } = await serveStored(recordingAgent(seen), {
    identify: identifyByHeader,
    authorize: (_request, access) => !(refuse && access.action === "run"),
  });
  const session = sessionOn(url, "t");
  await run(session.send("first"));
  await run(session.send("second"));
  await run(session.regenerate());
  const before = session.messages;
  const groups = session.branchGroups;
  refuse = true;
  const updates = await run(session.edit(before[2].id, "second, edited"));
  expect(errorsOf(updates)[0]).toMatchObject({ kind: "http", status: 403 });
  expect(updates[updates.length - 1]).toMatchObject({ kind: "done", end: { kind: "failed", unsent: { role: "user", content: "second, edited" } } });
  expect(session.messages).toEqual(before);
  expect(session.branchGroups).toEqual(groups);
  const regenerated = await run(session.regenerate());
  expect(errorsOf(regenerated)[0]).toMatchObject({ kind: "http", status: 403 });
  expect(session.messages).toEqual(before);
  expect(seen).toHaveLength(3);
});
