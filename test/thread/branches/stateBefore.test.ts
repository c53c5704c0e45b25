/** The state a new sibling starts from (docs/threads.md#edit-and-regenerate), read off the path's checkpoints. */
import { pathOf } from "../../../src/thread/branches/groupAfter";
import { stateBefore } from "../../../src/thread/branches/stateBefore";
import { answer, user } from "./support";

describe("stateBefore", () => {
  // u1 ran from {n:1} (checkpoint at 0), u2 from {n:2} (at 2), u3 from {n:2} too (no checkpoint: unchanged)
  const path = pathOf([user("u1"), answer("a1"), user("u2"), answer("a2"), user("u3"), answer("a3")]);
  const checkpoints = [
    { at: 0, state: { n: 1 } },
    { at: 2, state: { n: 2 } },
  ];

  test("a regenerate (the message before the group is a user message) starts from the state before that user message's run", () => {
    expect(stateBefore(checkpoints, path, 1)).toEqual({ n: 1 });
    expect(stateBefore(checkpoints, path, 3)).toEqual({ n: 2 });
    expect(stateBefore(checkpoints, path, 5)).toEqual({ n: 2 });
  });

  test("an edit (the group replaces a user message) starts from the state before the replaced message's run", () => {
    expect(stateBefore(checkpoints, path, 0)).toEqual({ n: 1 });
    expect(stateBefore(checkpoints, path, 2)).toEqual({ n: 2 });
    expect(stateBefore(checkpoints, path, 4)).toEqual({ n: 2 });
  });

  test("a checkpoint after the user message (a later run of the same answer) does not count for a regenerate", () => {
    const resumed = [...checkpoints, { at: 3, state: { n: 9 } }];
    expect(stateBefore(resumed, path, 3)).toEqual({ n: 2 });
    expect(stateBefore(resumed, path, 4)).toEqual({ n: 9 });
  });

  test("no checkpoint yet: {} (no state)", () => {
    expect(stateBefore([], path, 3)).toEqual({});
    expect(stateBefore([{ at: 2, state: { n: 2 } }], path, 1)).toEqual({});
  });

  test("a position past the path's end is not a regenerate: the last checkpoint at or before it", () => {
    expect(stateBefore([...checkpoints, { at: 6, state: { n: 6 } }], path, 7)).toEqual({ n: 6 });
  });

  test("two user messages in a row (the first never answered): a new answer to the first and an edit of the second start apart", () => {
    // u2's run set {n:3} and failed before it answered; u3's run started from {n:3}
    const unanswered = pathOf([user("u1"), answer("a1"), user("u2"), user("u3"), answer("a3")]);
    const marks = [...checkpoints, { at: 3, state: { n: 3 } }];
    expect(stateBefore(marks, unanswered, 3, "answer")).toEqual({ n: 2 }); // another answer to u2
    expect(stateBefore(marks, unanswered, 3)).toEqual({ n: 2 }); // the default head is an answer
    expect(stateBefore(marks, unanswered, 3, "user")).toEqual({ n: 3 }); // u3 edited
    expect(stateBefore(marks, unanswered, 2, "user")).toEqual({ n: 2 }); // u2 edited
  });
});
