/** The tree beside a selected path (docs/threads.md#the-tree): forks, switches, and what each sibling keeps. */
import type { ForkMarker } from "../../../src/protocol/branchMeta";
import type { Message } from "../../../src/protocol/messages";
import type { ClientState } from "../../../src/thread/reducers/ClientState";
import * as E from "fp-ts/Either";
import { BranchTree } from "../../../src/thread/branches/BranchTree";
import { PathBranches } from "../../../src/thread/branches/PathBranches";
import { answer, asks, clientWith, pathIds, result, user } from "./support";

/** One run as the fold sees it: the fork (if any), the checkpoint of the state it starts from, its messages, the state it ends with. */
function run(
  branches: PathBranches,
  client: ClientState<unknown>,
  messages: readonly Message[],
  options: { fork?: ForkMarker; endState?: unknown; pending?: readonly string[] } = {},
): void {
  if (options.fork !== undefined) branches.fork(client, options.fork, options.pending ?? []);
  branches.checkpoint(client);
  for (const message of messages) client.messages.append(message);
  if (options.endState !== undefined) client.setRawState(options.endState);
}

/** u1 → a1 (state {n:1}), u2 → a2 (state {n:2}): two runs, the second starting from {n:1}. */
function twoTurns(): { branches: PathBranches; client: ClientState<unknown> } {
  const branches = new PathBranches();
  const client = clientWith([]);
  run(branches, client, [user("u1"), answer("a1")], { endState: { n: 1 } });
  run(branches, client, [user("u2"), answer("a2")], { endState: { n: 2 } });
  return { branches, client };
}

/** Forks after `after` as the store does: the marker the path gives, then the run. */
function forkRun(branches: PathBranches, client: ClientState<unknown>, after: string | null, messages: readonly Message[], endState?: unknown): ForkMarker {
  const marker = branches.markerFor(client, after);
  if (marker === undefined) throw new Error(`expected a marker after ${String(after)}`);
  run(branches, client, messages, { fork: marker, endState });
  return marker;
}

describe("markerFor", () => {
  test("the path's last message: undefined (the run continues the path); a message not on the path: undefined", () => {
    const { branches, client } = twoTurns();
    expect(branches.markerFor(client, "a2")).toBeUndefined();
    expect(branches.markerFor(client, "nowhere")).toBeUndefined();
  });

  test("a message in the middle, or the start: the message that follows it is the group's one earlier sibling", () => {
    const { branches, client } = twoTurns();
    expect(branches.markerFor(client, "u2")).toEqual({ after: "u2", siblingIds: ["a2"] });
    expect(branches.markerFor(client, "a1")).toEqual({ after: "a1", siblingIds: ["u2"] });
    expect(branches.markerFor(client, null)).toEqual({ after: null, siblingIds: ["u1"] });
  });

  test("an existing group: its siblings in the order they were made, the shown one by its first message", () => {
    const { branches, client } = twoTurns();
    forkRun(branches, client, "u2", [answer("a2b")]);
    expect(branches.markerFor(client, "u2")).toEqual({ after: "u2", siblingIds: ["a2", "a2b"] });
  });
});

describe("fork", () => {
  test("at the start: the whole path becomes the first sibling; the new one starts from no state", () => {
    const { branches, client } = twoTurns();
    run(branches, client, [], { fork: { after: null, siblingIds: ["u1"] } });
    expect(pathIds(client)).toEqual([]);
    expect(client.rawState).toEqual({});
    expect(branches.groups(client)).toEqual([{ after: null, selected: 1, siblingIds: ["u1", ""] }]);
    client.messages.append(user("v1"));
    expect(branches.groups(client)).toEqual([{ after: null, selected: 1, siblingIds: ["u1", "v1"] }]);
  });

  test("in the middle (a regenerate): the path is cut after the user message and the state is the one its run started from", () => {
    const { branches, client } = twoTurns();
    forkRun(branches, client, "u2", [answer("a2b")], { n: 3 });
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2b"]);
    expect(client.rawState).toEqual({ n: 3 });
    expect(branches.groups(client)).toEqual([{ after: "u2", selected: 1, siblingIds: ["a2", "a2b"] }]);
  });

  test("an edit starts from the state before the replaced user message's run", () => {
    const { branches, client } = twoTurns();
    expect(branches.stateAfter(client, "a1")).toEqual({ n: 1 });
    expect(branches.stateAfter(client, "u1")).toEqual({});
    forkRun(branches, client, "a1", [user("u2e")]);
    expect(client.rawState).toEqual({ n: 1 });
    expect(branches.groups(client)).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2e"] }]);
  });

  test("after a user message followed by another (the first never answered): the run's input says whether it answers the first or edits the second", () => {
    const branches = new PathBranches();
    const client = clientWith([]);
    run(branches, client, [user("u1"), answer("a1")], { endState: { n: 1 } });
    run(branches, client, [user("u2")], { endState: { n: 2 } }); // failed before it answered
    run(branches, client, [user("u3"), answer("a3")]);
    const marker = { after: "u2", siblingIds: ["u3"] };
    const answering = clientWith(client.messages.snapshot(), client.rawState);
    PathBranches.from(branches.tree(client)).fork(answering, marker, [], [user("u1"), answer("a1"), user("u2")]);
    expect(answering.rawState).toEqual({ n: 1 });
    const editing = clientWith(client.messages.snapshot(), client.rawState);
    PathBranches.from(branches.tree(client)).fork(editing, marker, [], [user("u1"), answer("a1"), user("u2"), user("u3e")]);
    expect(editing.rawState).toEqual({ n: 2 });
    const inPlace = clientWith(client.messages.snapshot(), client.rawState);
    PathBranches.from(branches.tree(client)).fork(inPlace, marker, [], [user("u3", "edited")]);
    expect(inPlace.rawState).toEqual({ n: 2 });
    expect(branches.stateAfter(client, "u2", "user")).toEqual({ n: 2 });
    expect(branches.stateAfter(client, "u2")).toEqual({ n: 1 });
  });

  test("into an existing group: the new sibling is appended last and selected; the shown one is frozen in its place", () => {
    const { branches, client } = twoTurns();
    forkRun(branches, client, "u2", [answer("a2b")]);
    forkRun(branches, client, "u2", [answer("a2c")]);
    expect(branches.groups(client)).toEqual([{ after: "u2", selected: 2, siblingIds: ["a2", "a2b", "a2c"] }]);
    expect(branches.select(client, "a2c", 1, [])).toEqual({ result: "switched", pending: [] });
    forkRun(branches, client, "u2", [answer("a2d")]);
    expect(branches.groups(client)).toEqual([{ after: "u2", selected: 3, siblingIds: ["a2", "a2b", "a2c", "a2d"] }]);
    expect(branches.select(client, "a2d", 1, []).result).toBe("switched");
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2b"]);
  });

  test("a marker whose `after` is not on the path, or ends it, changes nothing", () => {
    const { branches, client } = twoTurns();
    branches.fork(client, { after: "nowhere", siblingIds: ["x"] }, []);
    branches.fork(client, { after: "a2", siblingIds: [] }, []);
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(branches.groups(client)).toEqual([]);
  });
});

describe("select", () => {
  test("back and forth: each sibling comes back with its messages and its state", () => {
    const { branches, client } = twoTurns();
    forkRun(branches, client, "u2", [answer("a2b")], { n: 3 });
    expect(branches.select(client, "a2b", 0, [])).toEqual({ result: "switched", pending: [] });
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(client.rawState).toEqual({ n: 2 });
    expect(branches.groups(client)).toEqual([{ after: "u2", selected: 0, siblingIds: ["a2", "a2b"] }]);
    expect(branches.select(client, "a2", 1, []).result).toBe("switched");
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2b"]);
    expect(client.rawState).toEqual({ n: 3 });
  });

  test("asked about any message of an answer, the answer's group switches", () => {
    const branches = new PathBranches();
    const client = clientWith([]);
    run(branches, client, [user("u1"), asks("a1", "c1"), result("t1", "c1"), answer("a1x")]);
    forkRun(branches, client, "u1", [answer("b1")]);
    expect(branches.select(client, "b1", 0, []).result).toBe("switched");
    expect(branches.select(client, "t1", 1, []).result).toBe("switched");
    expect(pathIds(client)).toEqual(["u1", "b1"]);
  });

  test("nested forks come back with their own selected child", () => {
    const { branches, client } = twoTurns();
    forkRun(branches, client, "u2", [answer("a2b")], { n: 3 });
    forkRun(branches, client, "u2", [answer("a2c")], { n: 4 });
    expect(branches.select(client, "a2c", 1, []).result).toBe("switched"); // u2 → a2b is this branch's choice
    forkRun(branches, client, "a1", [user("u2e"), answer("a3")], { n: 5 }); // an edit higher up freezes all of that
    expect(branches.groups(client)).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2e"] }]);
    expect(branches.select(client, "u2e", 0, []).result).toBe("switched");
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2b"]);
    expect(client.rawState).toEqual({ n: 3 });
    expect(branches.groups(client)).toEqual([
      { after: "a1", selected: 0, siblingIds: ["u2", "u2e"] },
      { after: "u2", selected: 1, siblingIds: ["a2", "a2b", "a2c"] },
    ]);
    expect(branches.select(client, "u2", 1, []).result).toBe("switched");
    expect(pathIds(client)).toEqual(["u1", "a1", "u2e", "a3"]);
    expect(branches.groups(client)).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2e"] }]);
  });

  test("checkpoints move with their branch: a regenerate on a sibling shown again starts from that sibling's state", () => {
    const branches = new PathBranches();
    const client = clientWith([]);
    // u1's run set {n:1} and was interrupted before it said anything; its resume (starting from {n:1}) answered a1
    run(branches, client, [user("u1")], { endState: { n: 1 } });
    run(branches, client, [answer("a1")]);
    run(branches, client, [user("u2"), answer("a2")]);
    expect(branches.stateAfter(client, "u2")).toEqual({ n: 1 });
    forkRun(branches, client, "u1", [answer("b1")]); // another answer to u1, from the state before u1's run: {}
    expect(client.rawState).toEqual({});
    expect(branches.select(client, "b1", 0, []).result).toBe("switched");
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(branches.stateAfter(client, "u2")).toEqual({ n: 1 });
    expect(branches.stateAfter(client, "a1")).toEqual({ n: 1 });
  });

  test("interrupts and pending client calls belong to their branch: gone on the other, back with it", () => {
    const { branches, client } = twoTurns();
    client.interrupts = [{ id: "i1", reason: "confirmation" }];
    const marker = branches.markerFor(client, "u2");
    if (marker === undefined) throw new Error("expected a marker");
    run(branches, client, [answer("a2b")], { fork: marker, pending: ["c9"] });
    expect(client.interrupts).toEqual([]);
    expect(branches.select(client, "a2b", 0, ["c7"])).toEqual({ result: "switched", pending: ["c9"] });
    expect(client.interrupts).toEqual([{ id: "i1", reason: "confirmation" }]);
    expect(branches.select(client, "a2", 1, [])).toEqual({ result: "switched", pending: ["c7"] });
    expect(client.interrupts).toEqual([]);
  });

  test.each<[string, string, number, string]>([
    ["a message not on the path", "nowhere", 0, "unknown-message"],
    ["an index past the group", "a2b", 2, "no-such-sibling"],
    ["a negative index", "a2b", -1, "no-such-sibling"],
    ["a fractional index", "a2b", 0.5, "no-such-sibling"],
    ["the shown sibling", "a2b", 1, "unchanged"],
    ["index 0 of a message with no group", "a1", 0, "unchanged"],
    ["index 1 of a message with no group", "a1", 1, "no-such-sibling"],
  ])("%s: %s", (_name, messageId, index, expected) => {
    const { branches, client } = twoTurns();
    forkRun(branches, client, "u2", [answer("a2b")]);
    expect(branches.select(client, messageId, index, [])).toEqual({ result: expected });
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2b"]);
  });
});

describe("from / tree", () => {
  test("a tree read back continues as the original", () => {
    const { branches, client } = twoTurns();
    forkRun(branches, client, "u2", [answer("a2b")], { n: 3 });
    const decoded = BranchTree.decode(JSON.parse(JSON.stringify(branches.tree(client))));
    if (E.isLeft(decoded)) throw new Error("expected the tree's JSON to decode");
    const copy = PathBranches.from(decoded.right);
    const twin = clientWith(client.messages.snapshot(), client.rawState);
    expect(copy.select(twin, "a2b", 0, []).result).toBe("switched");
    expect(pathIds(twin)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(twin.rawState).toEqual({ n: 2 });
    expect(PathBranches.from(undefined).empty).toBe(true);
    expect(copy.empty).toBe(false);
  });

  test("a thread whose state never changes keeps no checkpoint and no fork: empty", () => {
    const branches = new PathBranches();
    const client = clientWith([]);
    run(branches, client, [user("u1"), answer("a1")]);
    run(branches, client, [user("u2"), answer("a2")]);
    expect(branches.empty).toBe(true);
  });
});
