/** Which sibling group a path message belongs to (docs/threads.md#the-tree): the rule both ends share. */
import { groupAfter, pathOf } from "../../../src/thread/branches/groupAfter";
import { activity, answer, asks, result, system, thinking, user } from "./support";

describe("groupAfter", () => {
  const path = pathOf([user("u1"), thinking("r1"), asks("a1", "c1"), result("t1", "c1"), activity("p1"), answer("a2"), user("u2"), answer("a3")]);

  test("a user message's group follows the message before it; the first one's follows the thread's start", () => {
    expect(groupAfter(path, 0)).toBeNull();
    expect(groupAfter(path, 6)).toBe("a2");
  });

  test.each([
    [1, "reasoning"],
    [2, "an assistant message with tool calls"],
    [3, "a tool result"],
    [4, "an activity message"],
    [5, "the answer's text"],
  ])("message %p (%s) belongs to the answer of the user message before it: its group follows that user message", (position) => {
    expect(groupAfter(path, position)).toBe("u1");
  });

  test("the second answer belongs to the second user message", () => {
    expect(groupAfter(path, 7)).toBe("u2");
  });

  test("a system seed before any user message groups like a user message (after the message before it, or the start)", () => {
    const seeded = pathOf([system("s1"), system("s2"), user("u1"), answer("a1")]);
    expect(groupAfter(seeded, 0)).toBeNull();
    expect(groupAfter(seeded, 1)).toBe("s1");
    expect(groupAfter(seeded, 2)).toBe("s2");
    expect(groupAfter(seeded, 3)).toBe("u1");
  });

  test("pathOf reads an array by position", () => {
    const view = pathOf([user("u1"), answer("a1")]);
    expect(view.length).toBe(2);
    expect(view.at(1).id).toBe("a1");
  });
});
