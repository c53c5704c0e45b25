/**
 * The queue property test's model of one thread (docs/queue.md), kept apart from the code under
 * test: the live run and what it has written, what the thread waits on (an interrupt, a client
 * tool's result), the queue in the order it will run (front entries, interrupting messages and
 * steers, in the order sent, then plain queued ones), and what became of every message sent. From
 * it come, after any sequence of commands, the thread's path (its user and assistant messages),
 * the queue, and the fate each send must end with.
 */
import type { QueuedPolicy, WhileRunning } from "../../../src/protocol/queueMeta";

/** What the test's agent is told to do next in the live run (see queueAgent.ts). */
export type AgentAction = "say" | "listen" | "finish" | "interrupt" | "clientTool";

/** How a run came to be: a sent message's, the answer to an interrupt, or the follow-up to a client tool's result. */
export type RunOrigin = "message" | "resume" | "tool";

/** The live run as the model keeps it. */
export interface ModelRun {
  /** Its run id; `undefined` for a tool follow-up until the harness learns the id the Session minted. */
  runId: string | undefined;
  readonly origin: RunOrigin;
  /** The Session whose exchange streams it (it stops it, answers its interrupt, runs its client tool). */
  readonly session: number;
  /** Whether its agent subscribed to `ctx.incoming$` (it takes every steer sent into it). */
  listening: boolean;
  /** How many messages it said so far. */
  says: number;
  /** A resume's: the interrupt it answers, pending again if the run ends without finishing (docs/queue.md#answers-that-did-not-take). */
  readonly answers?: Awaited | undefined;
}

/** A waiting message as the model keeps it. */
export interface ModelEntry {
  /** Its id: the run id it starts as. */
  readonly id: string;
  readonly messageId: string;
  readonly policy: QueuedPolicy;
  /** Ahead of every plain queued message (an interrupting message or a steer). */
  readonly front: boolean;
  /** The live run a steer was sent into, if one was live. */
  readonly target: string | undefined;
  readonly session: number;
}

/**
 * What became of a sent message: `ran` (its own run started, now or from the queue), `taken` (a
 * steer the live run's agent took), `refused` (a plain send while a run was live or the queue not
 * empty), `cancelled` (a user cancelled it while it waited), `waiting` (still in the queue).
 */
export type Fate = "ran" | "taken" | "refused" | "cancelled" | "waiting";

/** One sent message and what became of it. */
export interface ModelSend {
  readonly messageId: string;
  readonly runId: string;
  readonly policy: WhileRunning;
  readonly session: number;
  fate: Fate;
  /** Whether it waited in the queue at some point (only such a message may be cancelled or answered `queued-started`). */
  queued: boolean;
}

/** What the thread waits on while no run is live. */
export type Awaited =
  | { readonly kind: "interrupt"; readonly interruptId: string; readonly session: number }
  | { readonly kind: "tool"; readonly toolCallId: string; readonly session: number };

/** The ids the test's agent gives what it writes in run `runId` (see queueAgent.ts). */
export const agentIds = {
  /** The `n`-th message it says (from 1). */
  say: (runId: string, n: number): string => `a-${runId}-${n}`,
  /** The assistant message carrying its client tool call. */
  toolMessage: (runId: string): string => `t-${runId}`,
  toolCall: (runId: string): string => `c-${runId}`,
  interrupt: (runId: string): string => `i-${runId}`,
};

/** What the model predicts the store shows once a command has settled. */
export interface ModelView {
  /** The live run's id (`"?"` for a tool follow-up whose id the harness has not learned), or `null`. */
  readonly live: string | null;
  /** The queue's ids in the order they will run. */
  readonly queue: readonly string[];
  /** The ids of the path's user and assistant messages, in order. */
  readonly path: readonly string[];
  /** The pending interrupt's id, or the pending client tool call's, or `null`. */
  readonly awaiting: string | null;
}

/**
 * The model. Each method applies one command the way docs/queue.md says the server does, and
 * returns what it predicts of the command's direct answer where there is one.
 *
 * @example
 * const model = new QueueModel();
 * model.send("m1", "r1", "queue", 0); // "ran": nothing was live, so it runs now
 * model.step("say");
 * model.send("m2", "r2", "queue", 0); // "waiting": behind r1
 * model.step("finish"); // r2 starts
 */
export class QueueModel {
  live: ModelRun | undefined;
  awaiting: Awaited | undefined;
  readonly queue: ModelEntry[] = [];
  readonly path: string[] = [];
  readonly sends: ModelSend[] = [];
  /** The run ids in the order their runs started (tool follow-ups as learned). */
  readonly started: (string | undefined)[] = [];

  /** Whether a plain (`refuse`) send applies now: the model leaves out a plain post on an idle thread waiting for answers with an empty queue (it would run, leaving the answers unanswered). */
  plainSendApplies(): boolean {
    return this.live !== undefined || this.awaiting === undefined || this.queue.length > 0;
  }

  /** A message `messageId` sent by `session` as run `runId` with `policy`; its fate right after the server answered. */
  send(messageId: string, runId: string, policy: WhileRunning, session: number): Fate {
    const sent: ModelSend = { messageId, runId, policy, session, fate: "refused", queued: false };
    this.sends.push(sent);
    const idle = this.live === undefined && this.awaiting === undefined && this.queue.length === 0;
    if (idle) {
      sent.fate = "ran";
      this.start({ runId, origin: "message", session, listening: false, says: 0 }, messageId);
      return sent.fate;
    }
    if (policy === "refuse") return sent.fate; // 409 run-active or queue-pending
    sent.fate = "waiting";
    sent.queued = true;
    const live = this.live;
    const entry: ModelEntry = { id: runId, messageId, policy, front: policy !== "queue", target: policy === "steer" ? live?.runId : undefined, session };
    this.enqueue(entry);
    if (policy === "steer" && live?.listening === true) this.takeSteers(live);
    if (policy === "interrupt" && live !== undefined) this.endCut(); // stopped: it ends cancelled, then the head runs
    return sent.fate;
  }

  /** The live run's agent does `action`; nothing when no run is live. */
  step(action: AgentAction): void {
    const live = this.live;
    if (live === undefined) return;
    const runId = this.runIdOf(live);
    switch (action) {
      case "say":
        this.path.push(agentIds.say(runId, ++live.says));
        return;
      case "listen":
        live.listening = true;
        this.takeSteers(live);
        return;
      case "finish":
        this.end();
        return;
      case "interrupt":
        this.end({ kind: "interrupt", interruptId: agentIds.interrupt(runId), session: live.session });
        return;
      case "clientTool":
        this.path.push(agentIds.toolMessage(runId));
        this.end({ kind: "tool", toolCallId: agentIds.toolCall(runId), session: live.session });
        return;
    }
  }

  /** The live run is stopped (`stop()`), or its lease ran out (ABANDONED): it ends, and the queue's head may start. */
  endLive(): void {
    if (this.live !== undefined) this.endCut();
  }

  /** The pending interrupt is answered by run `runId` (a resume passes the queue). */
  resume(runId: string): void {
    const awaited = this.awaiting;
    if (awaited?.kind !== "interrupt") throw new Error("the model resumes only a thread waiting on an interrupt");
    this.awaiting = undefined;
    this.start({ runId, origin: "resume", session: awaited.session, listening: false, says: 0, answers: awaited }, undefined);
  }

  /** The pending client tool call is answered: the executing Session's follow-up run starts (its id is learned later). */
  answerTool(): void {
    const awaited = this.awaiting;
    if (awaited?.kind !== "tool") throw new Error("the model answers only a thread waiting on a client tool");
    this.awaiting = undefined;
    this.start({ runId: undefined, origin: "tool", session: awaited.session, listening: false, says: 0 }, undefined);
  }

  /** The id of a tool follow-up run, once the harness read it from the store. */
  learnRunId(runId: string): void {
    if (this.live === undefined || this.live.runId !== undefined) throw new Error(`the model has no live run of unknown id to call ${runId}`);
    this.live.runId = runId;
    this.started[this.started.length - 1] = runId;
  }

  /** Cancels the waiting message `runId`: whether it was waiting (else the cancel is refused and nothing changes). */
  cancel(runId: string): boolean {
    const index = this.queue.findIndex((entry) => entry.id === runId);
    if (index < 0) return false;
    this.queue.splice(index, 1);
    this.sendOf(runId).fate = "cancelled";
    return true;
  }

  /** What the store must show now. */
  view(): ModelView {
    const awaited = this.awaiting;
    return {
      live: this.live === undefined ? null : (this.live.runId ?? "?"),
      queue: this.queue.map((entry) => entry.id),
      path: [...this.path],
      awaiting: awaited === undefined ? null : awaited.kind === "interrupt" ? awaited.interruptId : awaited.toolCallId,
    };
  }

  /** The send whose run id is `runId`. */
  sendOf(runId: string): ModelSend {
    const sent = this.sends.find((candidate) => candidate.runId === runId);
    if (sent === undefined) throw new Error(`the model sent no message as run ${runId}`);
    return sent;
  }

  private enqueue(entry: ModelEntry): void {
    // Front entries go after the front entries already there, ahead of every plain queued one (docs/queue.md#in-the-store).
    const at = entry.front ? this.queue.filter((waiting) => waiting.front).length : this.queue.length;
    this.queue.splice(at, 0, entry);
  }

  /** The live run's agent takes every steer sent into it that still waits, in queue order. */
  private takeSteers(live: ModelRun): void {
    for (const entry of [...this.queue]) {
      if (entry.policy !== "steer" || entry.target === undefined || entry.target !== live.runId) continue;
      this.queue.splice(this.queue.indexOf(entry), 1);
      this.path.push(entry.messageId);
      this.sendOf(entry.id).fate = "taken";
    }
  }

  /**
   * The live run ends cancelled or failed (a stop, an interrupting message, ABANDONED): a resume's
   * answer did not take, so the interrupt it answered is pending again (the fold's interrupts stay
   * as they were, docs/queue.md#answers-that-did-not-take); a tool follow-up's calls stay answered.
   */
  private endCut(): void {
    this.end(this.live?.answers);
  }

  /** The live run ends (leaving `awaited`, if it does); then, if nothing is awaited, the queue's head starts. */
  private end(awaited?: Awaited): void {
    this.live = undefined;
    this.awaiting = awaited;
    this.drain();
  }

  private drain(): void {
    if (this.live !== undefined || this.awaiting !== undefined) return;
    const head = this.queue.shift();
    if (head === undefined) return;
    this.sendOf(head.id).fate = "ran";
    this.start({ runId: head.id, origin: "message", session: head.session, listening: false, says: 0 }, head.messageId);
  }

  private start(run: ModelRun, messageId: string | undefined): void {
    this.live = run;
    this.started.push(run.runId);
    if (messageId !== undefined) this.path.push(messageId);
  }

  private runIdOf(run: ModelRun): string {
    if (run.runId === undefined) throw new Error("the model's live run has no id yet: learn it from the store first");
    return run.runId;
  }
}
