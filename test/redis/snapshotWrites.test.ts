/** Snapshot writes (pure; docs/threads.md#redis-keys): only the messages from the first one that changed are sent, by identity. */
import { snapshotWrite, snapshotWriteArguments } from "../../src/redis/snapshotWrites";
import type { Message } from "../../src/protocol/messages";
import type { ThreadSnapshot } from "../../src/thread/ThreadSnapshot";
import { threadRow } from "../../src/redis/threadRows";
import { threadRef } from "../../src/redis/threadRefs";
import { StoreError } from "../../src/server/store/StoreError";

const m = (id: string, content: string): Message => ({ id, role: "user", content });
const snapshotOf = (messages: readonly Message[]): ThreadSnapshot => ({
  threadId: "t",
  cursor: "",
  messages,
  state: null,
  interrupts: [],
  run: { runId: "r1", status: "finished", reopen: [] },
});

test("without a base every message is sent; the body holds none of them", () => {
  const messages = [m("a", "1"), m("b", "2")];
  const write = snapshotWrite(snapshotOf(messages), "5-0", 5, undefined, "t");
  expect(write).toMatchObject({ base: "", from: 0, count: 2, messages: ["a", JSON.stringify(messages[0]), "b", JSON.stringify(messages[1])] });
  expect(JSON.parse(write.body)).toMatchObject({ messages: [], run: { runId: "r1" } });
  expect(snapshotWriteArguments(write).slice(0, 6)).toEqual(["", "5-0", "5", write.body, "2", "0"]);
});

test("over a base: from the first message that is not the kept one (by identity), appended, replaced or cut", () => {
  const kept = [m("a", "1"), m("b", "2"), m("c", "3")];
  const base = { seq: 4, messages: kept };
  const appended = snapshotWrite(snapshotOf([...kept, m("d", "4")]), "9-0", 9, base, "t");
  expect(appended).toMatchObject({ base: "4", from: 3, count: 4, messages: ["d", JSON.stringify(m("d", "4"))] });
  // an equal but new object counts as changed: the fold keeps an unchanged message's object
  const replaced = snapshotWrite(snapshotOf([kept[0], m("b", "2"), kept[2]]), "9-0", 9, base, "t");
  expect(replaced).toMatchObject({ from: 1, count: 3 });
  expect(replaced.messages).toHaveLength(4);
  expect(snapshotWrite(snapshotOf(kept.slice(0, 1)), "9-0", 9, base, "t")).toMatchObject({ from: 1, count: 1, messages: [] });
});

test("a path cut and then different (a fork, a switch) names the ids fields of the kept messages it no longer holds, tool calls included", () => {
  const call = (id: string): Message => ({
    id,
    role: "assistant",
    toolCalls: [{ id: `call-${id}`, type: "function", function: { name: "f", arguments: "{}" } }],
  });
  const kept = [m("u1", "1"), call("a1"), m("u2", "2"), call("a2"), m("u3", "3")];
  const base = { seq: 7, messages: kept };
  // the edit of u2: the path keeps u1, a1 and gets u2e; u2, a2 (and its call) and u3 leave the index
  const edited = snapshotWrite(snapshotOf([kept[0], kept[1], m("u2e", "2!")]), "9-0", 9, base, "t");
  expect(edited).toMatchObject({ from: 2, count: 3, dropped: ["u2", "a2", "tc:call-a2", "u3"] });
  expect(snapshotWriteArguments(edited).slice(6)).toEqual(["", "u2e", JSON.stringify(m("u2e", "2!")), "u2", "a2", "tc:call-a2", "u3"]);
  // a message kept past the first change (the same id again, rewritten) stays indexed
  const rewritten = snapshotWrite(snapshotOf([kept[0], kept[1], m("u2", "2"), call("a2")]), "9-0", 9, base, "t");
  expect(rewritten).toMatchObject({ from: 2, dropped: ["u3"] });
  // nothing cut: no dropped fields; no base: the whole index is rewritten anyway
  expect(snapshotWrite(snapshotOf([...kept, m("u4", "4")]), "9-0", 9, base, "t").dropped).toBeUndefined();
  expect(snapshotWrite(snapshotOf([m("x", "x")]), "9-0", 9, undefined, "t").dropped).toBeUndefined();
});

test("the tree's forks are kept apart from the body, and sent only when they are not the base's (by identity)", () => {
  const saved = { messages: [m("a", "old")], state: null, interrupts: [], forks: [], checkpoints: [] };
  const forks = [{ after: null, at: 0, selected: 1, branches: [saved, null] }];
  const branches = { forks, checkpoints: [], groups: [{ after: null, selected: 1, siblingIds: ["a", "b"] }] };
  const snapshot = { ...snapshotOf([m("b", "new")]), branches };
  const first = snapshotWrite(snapshot, "9-0", 9, undefined, "t");
  expect(first.tree).toBe(JSON.stringify(forks));
  expect(JSON.parse(first.body)).toMatchObject({ messages: [], branches: { forks: [], groups: branches.groups } });
  expect(snapshotWrite(snapshot, "10-0", 10, { seq: 9, messages: snapshot.messages, forks }, "t").tree).toBe("=");
  expect(snapshotWrite(snapshot, "10-0", 10, { seq: 9, messages: snapshot.messages, forks: [...forks] }, "t").tree).toBe(JSON.stringify(forks));
  expect(snapshotWrite(snapshotOf([m("b", "new")]), "10-0", 10, { seq: 9, messages: [], forks }, "t").tree).toBe("");
});

test("a thread that does not serialize is refused invalid-append, naming the thread", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  let refused: unknown;
  try {
    snapshotWrite({ ...snapshotOf([]), state: cyclic }, "1-0", 1, undefined, "t9");
  } catch (error) {
    refused = error;
  }
  expect(StoreError.isInstance(refused) && { code: refused.code, threadId: refused.threadId }).toEqual({ code: "invalid-append", threadId: "t9" });
});

test("a row: the title set, else the default; times, flags, and the preview of the last message with text", () => {
  const last = [JSON.stringify({ id: "a1", role: "assistant", content: "Sure." }), "not json", JSON.stringify({ id: "x", role: "activity" })];
  expect(threadRow("t1", ["", "Hello", "10", "20", "0", "1", last])).toEqual({
    threadId: "t1",
    title: "Hello",
    createdAt: 10,
    updatedAt: 20,
    archived: false,
    running: true,
    lastMessage: { role: "assistant", preview: "Sure." },
  });
  expect(threadRow("t1", ["Mine", "Hello", "10", "20", "1", "0", []])).toEqual({
    threadId: "t1",
    title: "Mine",
    createdAt: 10,
    updatedAt: 20,
    archived: true,
    running: false,
  });
});

test("a thread's name inside the store: its id without an owner, the JSON pair with one", () => {
  expect(threadRef("t1", undefined)).toBe("t1");
  expect(threadRef("t1", "ann")).toBe('["ann","t1"]');
  expect(threadRef("t1", "ann")).not.toBe(threadRef("ann", "t1"));
});
