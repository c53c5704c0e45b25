/**
 * What the ordering verifier remembers between events (docs/rules.md#order). Everything here is bounded by
 * what is open right now plus the owner maps of the current run, which are discarded when a new
 * RUN_STARTED follows a terminal: no history is kept, so every check is a hash lookup.
 */

/**
 * The owner recorded for the parent agent (an untagged event). Distinct from every subagent id, `""` included.
 *
 * @example
 * ownerOf(undefined) === PARENT; // true
 * ownerOf("") === PARENT; // false: "" is a real subagent id
 */
export const PARENT: unique symbol = Symbol("parent agent");

/** Who an entity or a step belongs to: a subagent invocation id, or the parent agent. */
export type Owner = string | typeof PARENT;

/**
 * The owner an event's optional tag names: the tag itself, or the parent when it is absent.
 *
 * @example
 * ownerOf("s1"); // "s1"
 */
export function ownerOf(tag: string | undefined): Owner {
  return tag === undefined ? PARENT : tag;
}

/**
 * How an owner reads in an error message.
 *
 * @example
 * describeOwner(PARENT); // "the parent agent"
 * describeOwner("s1"); // 'subagent "s1"'
 */
export function describeOwner(owner: Owner): string {
  return owner === PARENT ? "the parent agent" : `subagent "${owner}"`;
}

/**
 * Where the stream stands between runs:
 * - `before`: nothing accepted yet (only RUN_STARTED or RUN_ERROR may come, docs/rules.md#R1);
 * - `running`: a RUN_STARTED was accepted and no terminal yet;
 * - `finished` / `errored`: the last run ended with RUN_FINISHED / RUN_ERROR (docs/rules.md#R3, docs/rules.md#R4).
 */
export type RunPhase = "before" | "running" | "finished" | "errored";

/**
 * What recorded an owner, which decides the rule a conflicting opener breaks: an opener (docs/rules.md#R38), a
 * TOOL_CALL_RESULT minting its message (docs/rules.md#R42), a MESSAGES_SNAPSHOT (docs/rules.md#R43), the RUN_STARTED input
 * echo (docs/rules.md#R44), an ACTIVITY_SNAPSHOT (docs/rules.md#R41).
 */
export type OwnerSource = "opener" | "tool-result" | "snapshot" | "input" | "activity-snapshot";

/** A recorded owner and where it came from. */
export interface OwnerRecord {
  readonly owner: Owner;
  readonly source: OwnerSource;
}

const parentRecords: { readonly [S in OwnerSource]: OwnerRecord } = {
  opener: { owner: PARENT, source: "opener" },
  "tool-result": { owner: PARENT, source: "tool-result" },
  snapshot: { owner: PARENT, source: "snapshot" },
  input: { owner: PARENT, source: "input" },
  "activity-snapshot": { owner: PARENT, source: "activity-snapshot" },
};

/**
 * The record for `owner` set by `source`; parent records are shared, so untagged streams allocate none.
 *
 * @example
 * ownerRecord("s1", "snapshot"); // { owner: "s1", source: "snapshot" }
 */
export function ownerRecord(owner: Owner, source: OwnerSource): OwnerRecord {
  return owner === PARENT ? parentRecords[source] : { owner, source };
}

/** Owners by entity kind. Ids are unique only within a kind, so each kind has its own map (docs/rules.md#R40). */
export interface OwnerMaps {
  readonly message: Map<string, OwnerRecord>;
  readonly toolCall: Map<string, OwnerRecord>;
  readonly activity: Map<string, OwnerRecord>;
  readonly reasoning: Map<string, OwnerRecord>;
}

/** The per-run part of the state, replaced wholesale by a RUN_STARTED that follows a terminal (docs/rules.md#R6). */
export interface RunScope {
  /** `runId` of the current run: RUN_FINISHED must name it (docs/rules.md#R7a), and error messages do. */
  runId: string | undefined;
  /** Open text message ids, in the order they opened. */
  readonly openTextMessages: Set<string>;
  /** Open tool call ids, in the order they opened. */
  readonly openToolCalls: Set<string>;
  /** Open reasoning blocks (REASONING_START … REASONING_END): messageId → its owner: the tag, else the owner recorded for the id, else the parent (docs/rules.md#R22). */
  readonly openReasoningSpans: Map<string, Owner>;
  /** How many reasoning blocks each owner has open, so "is REASONING_MESSAGE_START inside a block of its owner" is one lookup (docs/rules.md#R22). */
  readonly openReasoningBlocksByOwner: Map<Owner, number>;
  /** Open reasoning messages (REASONING_MESSAGE_START … END), by messageId; a namespace apart from spans (docs/rules.md#R22). */
  readonly openReasoningMessages: Set<string>;
  /** Active steps: step name → the owners that hold a step of that name (docs/rules.md#R25 to docs/rules.md#R29). */
  readonly activeSteps: Map<string, Set<Owner>>;
  /** How many (owner, name) pairs `activeSteps` holds, so RUN_FINISHED checks it in O(1) (docs/rules.md#R7). */
  activeStepCount: number;
  /** Subagents started and not yet finished or errored in this run. */
  readonly activeSubagents: Set<string>;
  /** Subagents that finished or errored in this run (docs/rules.md#R31, docs/rules.md#R32). */
  readonly closedSubagents: Set<string>;
  /** Recorded owners; kept after an entity closes, until the run ends (docs/rules.md#R38). */
  readonly owners: OwnerMaps;
  /** Legacy THINKING_* nesting (docs/rules.md#R23): a thinking step, and a thinking message inside it. */
  thinkingStep: boolean;
  thinkingMessage: boolean;
}

/**
 * The thread every run of the stream carries (docs/rules.md#R7a): the one the consumer sent, when it said so,
 * else the first RUN_STARTED's.
 *
 * @example
 * initialVerifierState({ threadId: "t1" }).thread; // { threadId: "t1", source: "input" }
 */
export interface StreamThread {
  readonly threadId: string;
  /** `input`: the thread the consumer's RunAgentInput named; `stream`: the first RUN_STARTED of the stream. */
  readonly source: "input" | "stream";
}

/**
 * The verifier's whole state. Treat it as owned by `verifyStep`: read it (for instance to see
 * what is still open), never write it. `verifyStep` mutates it in place once an event has passed
 * every check, and leaves it untouched when it rejects one.
 */
export interface VerifierState {
  phase: RunPhase;
  run: RunScope;
  /** The stream's thread; `undefined` until the first RUN_STARTED when the consumer named none (docs/rules.md#R7a). Never reset. */
  thread: StreamThread | undefined;
}

/**
 * What the verifier may be told before the first event.
 *
 * @example
 * initialVerifierState({ threadId: input.threadId }); // a RUN_STARTED on another thread is refused (docs/rules.md#R7a)
 */
export interface VerifierExpectations {
  /** The thread the consumer sent (RunAgentInput.threadId): every run of the stream must carry it. */
  readonly threadId?: string | undefined;
}

/**
 * A fresh per-run scope: nothing open, no owners recorded.
 *
 * @example
 * emptyRunScope("r2").openTextMessages.size; // 0
 */
export function emptyRunScope(runId?: string): RunScope {
  return {
    runId,
    openTextMessages: new Set(),
    openToolCalls: new Set(),
    openReasoningSpans: new Map(),
    openReasoningBlocksByOwner: new Map(),
    openReasoningMessages: new Set(),
    activeSteps: new Map(),
    activeStepCount: 0,
    activeSubagents: new Set(),
    closedSubagents: new Set(),
    owners: { message: new Map(), toolCall: new Map(), activity: new Map(), reasoning: new Map() },
    thinkingStep: false,
    thinkingMessage: false,
  };
}

/**
 * The state before the first event of a stream: no run yet, nothing open; with `expect.threadId`,
 * the thread every RUN_STARTED and RUN_FINISHED of the stream must name (docs/rules.md#R7a).
 *
 * @example
 * let state = initialVerifierState({ threadId: "t1" });
 * const result = verifyStep(state, ev.runStarted("t1", "r1")); // Right(state), phase "running"
 */
export function initialVerifierState(expect: VerifierExpectations = {}): VerifierState {
  const { threadId } = expect;
  return { phase: "before", run: emptyRunScope(), thread: threadId === undefined ? undefined : { threadId, source: "input" } };
}
