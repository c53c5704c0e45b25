/** BranchGroups (docs/client.md#branches): a fork marker keeps the groups above the cut, drops those below, and the new sibling's id is read from the path. */
import { BranchGroups } from "../../../src/client/branches/BranchGroups";
import type { Message } from "../../../src/protocol/messages";

const user = (id: string): Message => ({ id, role: "user", content: id });
const answer = (id: string): Message => ({ id, role: "assistant", content: id });
const path = [user("u1"), answer("a1"), user("u2"), answer("a2"), user("u3"), answer("a3")];

test("a fork drops the groups below its cut point, replaces its own group, and fills the new sibling's id from the path once it arrives", () => {
  const groups = new BranchGroups();
  groups.replace([
    { after: "u1", selected: 1, siblingIds: ["a0", "a1"] },
    { after: "a2", selected: 0, siblingIds: ["u3", "u3b"] },
    { after: "u3", selected: 1, siblingIds: ["a3x", "a3"] },
  ]);
  groups.fork({ after: "a1", siblingIds: ["u2"] }, path);
  expect(groups.raw).toEqual([
    { after: "u1", selected: 1, siblingIds: ["a0", "a1"] },
    { after: "a1", selected: 1, siblingIds: ["u2", ""] },
  ]);
  const cut = path.slice(0, 2);
  expect(groups.info(cut, "a1")).toEqual({ index: 1, count: 2, siblingIds: ["a0", "a1"] });
  const grown = [...cut, user("u2e")];
  expect(groups.info(grown, "u2e")).toEqual({ index: 1, count: 2, siblingIds: ["u2", "u2e"] });
  expect(groups.groups(grown)).toBe(groups.groups(grown)); // the same array while nothing changed
  groups.fork({ after: null, siblingIds: ["u1"] }, grown);
  expect(groups.raw).toEqual([{ after: null, selected: 1, siblingIds: ["u1", ""] }]);
});

test("a prelude's snapshot replaces the groups; one without groups empties them only when it is a join's", () => {
  const groups = new BranchGroups();
  const snapshot = {
    type: "MESSAGES_SNAPSHOT" as const,
    messages: path,
    metadata: { "agui-rx": { branches: [{ after: "u1", selected: 0, siblingIds: ["a1", "a1b"] }] } },
  };
  expect(groups.hear(snapshot, [], true)).toBe(true);
  expect(groups.info(path, "a1")).toEqual({ index: 0, count: 2, siblingIds: ["a1", "a1b"] });
  expect(groups.hear({ type: "MESSAGES_SNAPSHOT", messages: path }, path, false)).toBe(false);
  expect(groups.raw).toHaveLength(1);
  expect(groups.hear({ type: "MESSAGES_SNAPSHOT", messages: path }, path, true)).toBe(true);
  expect(groups.info(path, "a1")).toEqual({ index: 0, count: 1, siblingIds: ["a1"] });
});
