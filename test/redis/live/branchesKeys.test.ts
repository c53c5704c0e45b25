/**
 * What only the Redis store promises of branches (docs/threads.md#redis-keys), on a real
 * redis-server: the tree lives beside the kept snapshot's body (its forks in their own field, sent
 * only when they changed), so a switch is one read and one script;
 * the `ids` index follows the selected path (a fork or a switch drops the ids of the messages it
 * cut, tool calls included); a read with a limit during a live run of a branched thread folds the
 * run into the window and still names every group as the whole thread does.
 */
import { ev } from "../../../src/protocol/build";
import { threadKeys } from "../../../src/redis/keys";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { answer, chat, current, ids, postForked, postWhole, type BranchThread } from "../../server/store/branchesSupport";
import { newOwner, newThreadId, snapshotOf, user } from "../../server/store/ownedThreadsSupport";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { recordingPort, scriptCalls, type RecordingPort } from "../support/ports";

const prefix = uniquePrefix("branches-keys");
const opened: { store: RedisStore; client: TestClient }[] = [];
let admin: TestClient;

beforeAll(async () => {
  admin = await connectClient("branches-keys-admin");
});

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

afterAll(async () => {
  await closeClient(admin);
});

async function instance(): Promise<{ store: RedisStore; port: RecordingPort }> {
  const client = await connectClient("branches-keys");
  const port = recordingPort(client);
  const store = redisStore({ port, prefix });
  opened.push({ store, client });
  return { store, port };
}

/** The fields of the thread's `ids` hash, but its `tc-indexed` mark, sorted. */
async function indexed(t: BranchThread): Promise<string[]> {
  const reply: unknown = await admin.sendCommand(["HKEYS", threadKeys(prefix, t.threadId, t.owner).ids]);
  if (!Array.isArray(reply)) throw new Error("expected HKEYS to answer an array");
  return reply.filter((field): field is string => typeof field === "string" && field !== "tc-indexed").sort();
}

/** The kept snapshot's body: the thread's JSON without its messages. */
async function keptBody(t: BranchThread): Promise<{ messages: unknown[]; branches?: { forks: unknown[] } }> {
  const body: unknown = await admin.sendCommand(["HGET", threadKeys(prefix, t.threadId, t.owner).snapshot, "body"]);
  if (typeof body !== "string") throw new Error("expected a kept snapshot body");
  return JSON.parse(body) as { messages: unknown[]; branches?: { forks: unknown[] } };
}

/** The kept snapshot's tree: its forks, kept apart from the body. */
async function keptTree(t: BranchThread): Promise<unknown[]> {
  const tree: unknown = await admin.sendCommand(["HGET", threadKeys(prefix, t.threadId, t.owner).snapshot, "tree"]);
  if (typeof tree !== "string") throw new Error("expected a kept tree");
  return JSON.parse(tree) as unknown[];
}

test("the tree lives beside the kept snapshot's body, sent only when it changed; the ids index follows the selected path through forks and switches", async () => {
  const { store, port } = await instance();
  const t: BranchThread = { store, owner: newOwner(), threadId: newThreadId() };
  await chat(t);
  const picked = await postWhole(t, [user("u3", "pick one")]);
  await answer(picked.writer, "a3", { call: "call-1", end: { pending: ["call-1"] } });
  expect(await indexed(t)).toEqual(["a1", "a2", "a3", "tc:call-1", "u1", "u2", "u3"]);
  // an edit of u2 cuts u2, a2, u3 and a3 (and its call) off the path: they leave the index
  await answer((await postForked(t, "a1", [user("u2e", "edited")])).writer, "a2e");
  expect(await indexed(t)).toEqual(["a1", "a2e", "u1", "u2e"]);
  const body = await keptBody(t);
  expect(body.messages).toEqual([]); // the path is the message list's; the frozen sibling is the tree's
  expect(body.branches?.forks).toEqual([]);
  const tree = await keptTree(t);
  expect(tree).toHaveLength(1);
  expect(JSON.stringify(tree)).toContain('"call-1"');
  // a turn on the edited path sends no frozen sibling again: the tree is kept as it is
  const from = port.sent.length;
  await answer((await postWhole(t, [user("u3e", "next")])).writer, "a3e");
  expect(port.sent.slice(from).filter((args) => args.some((arg) => arg.includes('"call-1"')))).toEqual([]);
  expect(await keptTree(t)).toEqual(tree);
  // switched back: the index is the other sibling's again, and a history page finds its messages by it
  expect(await store.selectBranch(t.threadId, "u2e", 0, { owner: t.owner })).toBe("switched");
  expect(await indexed(t)).toEqual(["a1", "a2", "a3", "tc:call-1", "u1", "u2", "u3"]);
  expect(JSON.stringify(await keptTree(t))).toContain('"u3e"'); // the edited branch, frozen now
  expect(ids((await store.history(t.threadId, { before: "a3", limit: 2 }, { owner: t.owner }))?.messages ?? [])).toEqual(["a2", "u3"]);
});

test("a switch is one read script and one select script, then the owner's index and the announcement", async () => {
  const { store, port } = await instance();
  const t: BranchThread = { store, owner: newOwner(), threadId: newThreadId() };
  await chat(t);
  await answer((await postForked(t, "u2")).writer, "a2b");
  const from = port.sent.length;
  expect(await store.selectBranch(t.threadId, "a2b", 0, { owner: t.owner })).toBe("switched");
  const sent = port.sent.slice(from);
  expect(scriptCalls(sent, "local after, count, limit")).toHaveLength(1);
  expect(scriptCalls(sent, "'HINCRBY', SNAPSHOT, 'sel'")).toHaveLength(1);
  expect(sent.filter((args) => args[0] === "PUBLISH")).toHaveLength(1);
  expect(sent).toHaveLength(4); // the two above, the owner's index write, the PUBLISH
  // an answer that changes nothing writes nothing: one read
  const again = port.sent.length;
  expect(await store.selectBranch(t.threadId, "a2", 0, { owner: t.owner })).toBe("unchanged");
  expect(port.sent.slice(again)).toHaveLength(1);
});

test("a read with a limit during a live run of a branched thread folds the run into the window and names every group as a whole read does", async () => {
  const { store, port } = await instance();
  const t: BranchThread = { store, owner: newOwner(), threadId: newThreadId() };
  await chat(t);
  await answer((await postForked(t, "u2")).writer, "a2b"); // a group far before the window
  for (let n = 3; n <= 14; n++) await answer((await postWhole(t, [user(`u${n}`, `question ${n}`)])).writer, `a${n}`);
  const regenerated = await postForked(t, "u14"); // and one in it, live
  await regenerated.writer.append([ev.textMessageStart("a14b"), ev.textMessageContent("a14b", "partial")]);
  const whole = await current(t);
  expect(whole.branches?.groups).toEqual([
    { after: "u2", selected: 1, siblingIds: ["a2", "a2b"] },
    { after: "u14", selected: 1, siblingIds: ["a14", "a14b"] },
  ]);
  const from = port.sent.length;
  const read = await store.read(t.threadId, undefined, { owner: t.owner, limit: 2 });
  expect(scriptCalls(port.sent.slice(from), "local after, count, limit")).toHaveLength(1); // the window folded: no whole read
  expect(read?.kind === "snapshot" && read.hasOlder).toBe(true);
  expect(snapshotOf(read).messages).toEqual(whole.messages.slice(-2));
  expect(snapshotOf(read).branches?.groups).toEqual(whole.branches?.groups);
  await regenerated.writer.append([ev.textMessageEnd("a14b"), ev.runFinished(t.threadId, regenerated.writer.runId)]);
  expect(ids((await current(t)).messages).slice(-2)).toEqual(["u14", "a14b"]);
});
