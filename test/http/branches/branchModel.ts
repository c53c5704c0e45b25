/**
 * The property tests' model of a thread's tree (docs/threads.md#the-tree), kept apart from the code
 * under test: every user message and every answer (its one to two messages) a node with a parent
 * pointer, every node's children in the order they were made with the one it shows (`selected`),
 * and the state the thread had once each answer's run ended. From it come, after any sequence of sends, edits, regenerates and switches, the
 * selected path, its sibling groups, the state, and what the agent of the next run must be given.
 */
import type { BranchGroup } from "../../../src/protocol/branchMeta";
import { answerOf, type PlainMessage, type ScriptedAnswer } from "./scriptedAnswer";

export type { PlainMessage } from "./scriptedAnswer";

/** One node of the model's tree: a user message, or the messages of one answer to it. */
export interface ModelNode {
  /** The id of its first message (the head, which names it in its sibling group). */
  readonly id: string;
  readonly role: "user" | "answer";
  /** The user message's text. */
  readonly content: string;
  /** Its messages in path order. */
  readonly messages: readonly PlainMessage[];
  readonly parent: ModelNode | undefined;
  /** The siblings that follow this message, in the order they were made. */
  readonly children: ModelNode[];
  /** The index of the child the path goes on with. */
  selected: number;
  /** For an answer, the state once its run ended; for a user message, the state its run started from. */
  readonly state: unknown;
}

/** What the agent of a run must be given: the selected path up to the message it answers (without activity), and the starting state. */
export interface ExpectedRun {
  readonly messages: readonly PlainMessage[];
  readonly state: unknown;
  /** What the agent answers (the same script the test's agent plays). */
  readonly answer: ScriptedAnswer;
}

/** Where a message stands among its siblings, as `session.branches(id)` reports it. */
export interface SiblingPosition {
  readonly index: number;
  readonly count: number;
  readonly siblingIds: readonly string[];
}

/** No state yet: what the model starts from (the official client's `{}`). */
const NO_STATE: unknown = {};

/**
 * The model. `runs` counts the agent's runs, as the test's agent does, so each answer's id and
 * text are known before the run.
 *
 * @example
 * const model = new BranchModel();
 * const expected = model.send("u1", "hello"); // the agent must be given [u1] and {}
 * model.select("a1", 0);
 */
export class BranchModel {
  private readonly roots: ModelNode[] = [];
  private rootSelected = 0;
  private runs = 0;

  /** The selected path, from the thread's start. */
  path(): ModelNode[] {
    const path: ModelNode[] = [];
    let children = this.roots;
    let selected = this.rootSelected;
    while (children.length > 0) {
      const node = children[selected];
      path.push(node);
      children = node.children;
      selected = node.selected;
    }
    return path;
  }

  /** The selected path's messages as the tests compare them. */
  messages(): PlainMessage[] {
    return this.path().flatMap((node) => node.messages);
  }

  /** The state the selected path has (its last message's). */
  state(): unknown {
    return this.path().at(-1)?.state ?? NO_STATE;
  }

  /** The sibling groups along the selected path, in path order, as the wire shows them. */
  groups(): BranchGroup[] {
    const groups: BranchGroup[] = [];
    if (this.roots.length > 1) groups.push({ after: null, selected: this.rootSelected, siblingIds: this.roots.map((node) => node.id) });
    for (const node of this.path()) {
      const last = node.messages[node.messages.length - 1];
      if (node.children.length > 1) groups.push({ after: last.id, selected: node.selected, siblingIds: node.children.map((child) => child.id) });
    }
    return groups;
  }

  /** Where path message `id` stands among its siblings (one of one when it has none): a message inside an answer stands where the answer does. */
  position(id: string): SiblingPosition {
    const node = this.onPath(id);
    const siblings = node.parent === undefined ? this.roots : node.parent.children;
    const index = node.parent === undefined ? this.rootSelected : node.parent.selected;
    return { index, count: siblings.length, siblingIds: siblings.map((sibling) => sibling.id) };
  }

  /** The user messages of the selected path. */
  userMessages(): ModelNode[] {
    return this.path().filter((node) => node.role === "user");
  }

  /** A new user message `id` at the path's end, and its answer. */
  send(id: string, content: string): ExpectedRun {
    const tail = this.path().at(-1);
    return this.ask(tail, id, content);
  }

  /** User message `userId` of the path edited into a new sibling `newId` (the same id for a client that edits in place), and its answer. */
  edit(userId: string, newId: string, content: string): ExpectedRun {
    const user = this.onPath(userId);
    if (user.role !== "user") throw new Error(`the model edits user messages only, not ${userId}`);
    return this.ask(user.parent, newId, content);
  }

  /** Another answer to user message `userId` of the path. */
  regenerate(userId: string): ExpectedRun {
    const user = this.onPath(userId);
    if (user.role !== "user") throw new Error(`the model regenerates answers to user messages only, not ${userId}`);
    return this.answer(user);
  }

  /** Shows sibling `index` of the group path message `messageId` belongs to. */
  select(messageId: string, index: number): void {
    const node = this.onPath(messageId);
    const count = node.parent === undefined ? this.roots.length : node.parent.children.length;
    if (index < 0 || index >= count) throw new Error(`the model's group of ${messageId} has no sibling ${index}`);
    if (node.parent === undefined) this.rootSelected = index;
    else node.parent.selected = index;
  }

  private ask(parent: ModelNode | undefined, id: string, content: string): ExpectedRun {
    const siblings = parent === undefined ? this.roots : parent.children;
    const message: PlainMessage = { id, role: "user", content };
    const user: ModelNode = { id, role: "user", content, messages: [message], parent, children: [], selected: 0, state: parent?.state ?? NO_STATE };
    siblings.push(user);
    if (parent === undefined) this.rootSelected = siblings.length - 1;
    else parent.selected = siblings.length - 1;
    return this.answer(user);
  }

  /** The next run answers `user` (on the path): it is given the path up to `user` and the state `user`'s run started from. */
  private answer(user: ModelNode): ExpectedRun {
    const path = this.path();
    const upTo = path.slice(0, path.indexOf(user) + 1).flatMap((node) => node.messages.filter((message) => message.role !== "activity"));
    const answer = answerOf(++this.runs, user.content, user.state);
    const head = answer.messages[0].id;
    user.children.push({ id: head, role: "answer", content: "", messages: answer.messages, parent: user, children: [], selected: 0, state: answer.state });
    user.selected = user.children.length - 1;
    return { messages: upTo, state: user.state, answer };
  }

  private onPath(id: string): ModelNode {
    const node = this.path().find((candidate) => candidate.messages.some((message) => message.id === id));
    if (node === undefined) throw new Error(`the model's path has no message ${id}`);
    return node;
  }
}

/** A message as the tests compare them: id, role and content, whatever else a client keeps. */
export function plain(message: { readonly id: string; readonly role: string; readonly content?: unknown }): PlainMessage {
  return { id: message.id, role: message.role, content: message.content };
}

/** A state with "none yet" read as `{}`: `undefined`, `null` and `{}` all say the thread has no state. */
export function stateOrEmpty(state: unknown): unknown {
  return state === undefined || state === null ? NO_STATE : state;
}
