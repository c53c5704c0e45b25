/**
 * Property (docs/threads.md#the-tree, docs/threads.md#edit-and-regenerate): seeded sequences of
 * sends, edits, regenerates, branch switches and history walks on a memory store over real HTTP,
 * through the official `@ag-ui/client` HttpAgent and through our Session, checked after every
 * operation against a model of the tree (test/http/branches/branchModel.ts): the agent is given
 * the selected path and the state its sibling starts from, the client shows the path and its
 * state, `/connect` (with and without a limit) rebuilds the path and every sibling group, and the
 * pages of `/history` walk the path.
 */
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import type { BranchOp } from "./branchOps";
import { playOps, playSeed, THREAD } from "./branchRunner";
import { connected, serveBranches, type BranchServer } from "./branchServer";
import { officialClient } from "./officialClient";
import { sessionClient } from "./sessionClient";

const SEEDS = [1, 2, 3, 4, 5, 6];
const STEPS = 12;

const servers: BranchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.served.close()));
});

async function served(): Promise<BranchServer> {
  const server = await serveBranches(memoryStore());
  servers.push(server);
  return server;
}

test.each(SEEDS)(
  "through the official HttpAgent (edits in place keep their ids), seed %i: after every operation the model's path, groups and state",
  async (seed) => {
    const server = await served();
    await playSeed(seed, STEPS, [{ server, client: officialClient(server.url, THREAD) }]);
  },
);

test("through the official HttpAgent, five turns after one edit in place make one fork: the later posts match the edited branch", async () => {
  const server = await served();
  const send = (): BranchOp => ({ kind: "send", content: "more" });
  const turns = [send, send, (): BranchOp => ({ kind: "edit", userId: "u1", content: "edited" }), send, send, send, send, send];
  await playOps(turns, [{ server, client: officialClient(server.url, THREAD) }]);
  const { groups, messages } = await connected(server.url, THREAD);
  expect(groups).toEqual([{ after: "r1", selected: 1, siblingIds: ["u1", "u1"] }]); // after the first answer's last message, its tool result
  expect(messages.map((message) => message.id).join(" ")).toBe("u0 a1 r1 u1 a3 p3 u3 a4 u4 a5 r5 u5 p6 a6 u6 a7 p7 u7 a8");
});

test.each(SEEDS)(
  "through our Session, seed %i: after every operation the model's path, groups, state and sibling positions, a fresh connect() and loadOlder pages",
  async (seed) => {
    const server = await served();
    await playSeed(seed, STEPS, [{ server, client: sessionClient(server.url, THREAD) }]);
  },
);
