/**
 * Plays a list of queue commands (queueCommands.ts) through one or two Sessions against the served
 * handler, and checks, after each command, that the store shows what the model predicts (the live
 * run, the queue in order, the path, what the thread waits on), that every Session lists the
 * model's queue and shows no message twice; and at the end, once every run is driven to its end
 * and every wait answered, the contract's invariants (docs/queue.md): every message exactly once
 * on the path or cancelled or refused, the runs in the model's order with at most one per queued
 * id, every run's log passing both verifiers, no queued run started while the thread waited for
 * answers, each client tool call executed once, every send ended with one `done` that says its
 * fate, and each Session showing the store's path.
 */
import type { Observable } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { CancelQueuedResult } from "../../../src/client/transports/Transport";
import type { Update } from "../../../src/thread/Update";
import { counter } from "../../client/support";
import { expectAccepted } from "../../server/support";
import { as } from "../threads/support";
import { USER } from "../branches/branchServer";
import { AnsweredTools } from "./queueAgent";
import { describeCommand, type QueueCommand } from "./queueCommands";
import { QueueModel, type Fate, type ModelView } from "./queueModel";
import { LEASE_MS, QUEUE_RECHECK_MS, runLogs, storeView, THREAD, type QueueServer } from "./queueServer";

/** One subscription the test made (a send, a resume, a connect): its updates so far and whether it completed. */
interface Exchange {
  readonly what: string;
  readonly updates: Update<unknown>[];
  completed: boolean;
  /** What it errored with: an Update stream never errors, so this fails the play. */
  failure?: unknown;
}

/** How many event-loop turns a settle may take (a guard against a hang, not a timer). */
const SETTLE_TURNS = 20_000;

/** The ids of the user and assistant messages of a list, as the model names a path. */
function pathOf(messages: readonly { readonly id: string; readonly role: string }[]): string[] {
  return messages.filter((message) => message.role === "user" || message.role === "assistant").map((message) => message.id);
}

/** The id shown twice in `messages`, if any. */
function duplicateIn(messages: readonly { readonly id: string }[]): string | undefined {
  const seen = new Set<string>();
  for (const { id } of messages) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/** The `done` updates of an exchange. */
function donesOf(exchange: Exchange) {
  return exchange.updates.flatMap((update) => (update.kind === "done" ? [update.end] : []));
}

/** The end a send's `done` must say for its fate (`ran`: whatever its run ended with). */
const END_OF_FATE: Readonly<Record<Fate, string | undefined>> = {
  refused: "failed",
  cancelled: "cancelled",
  taken: "success",
  ran: undefined,
  waiting: undefined,
};

/**
 * What `cancelQueued` may answer for a message of each fate: too late for one that started or was
 * taken; for one cancelled before, either that it is cancelled (the store remembers it) or that no
 * such message waits (docs/queue.md#cancel leaves the repeat open).
 */
const CANCEL_ANSWERS: Readonly<Record<Fate, readonly CancelQueuedResult[]>> = {
  waiting: ["cancelled"],
  ran: ["started"],
  taken: ["taken"],
  cancelled: ["cancelled", "unknown"],
  refused: [],
};

/**
 * One play: the sessions, the model, and every exchange made. `start()` makes the thread (a first
 * message, answered) and lets every session join it; `apply` plays a command; `finish` ends every
 * run and checks the invariants.
 *
 * @example
 * const play = new QueuePlay(server, 2);
 * await play.start();
 * for (const command of commands) await play.apply(command);
 * await play.finish();
 */
export class QueuePlay {
  readonly model = new QueueModel();
  readonly tools = new AnsweredTools();
  readonly sessions: Session[];
  private readonly sends = new Map<string, Exchange>();
  private readonly exchanges: Exchange[] = [];
  /** The commands played so far, as failures name them. */
  readonly played: string[] = [];
  private next = 0;
  /** How many times a tab had to be reloaded to show the path (see `upToDate`). */
  reloads = 0;

  constructor(
    private readonly server: QueueServer,
    sessionCount: number,
  ) {
    this.sessions = Array.from({ length: sessionCount }, (_, index) => this.newSession(index, `s${index}`));
  }

  /** A Session as tab `index` makes it, its ids minted with `prefix`. */
  private newSession(index: number, prefix: string): Session {
    // Reconnects and the retries of a request cut before its answer go at once: the play waits in event-loop turns, not in backoff time.
    return new Session(new HttpTransport(this.server.url, { headers: as(USER), reconnect: { delay: 0 }, retry: { delay: 0 } }), {
      threadId: THREAD,
      newId: counter(prefix),
      tools: [this.tools.tool(index)],
    });
  }

  /** Makes the thread with a first message (answered), then every session joins it and follows it. */
  async start(): Promise<void> {
    await this.apply({ kind: "send", policy: "refuse", session: 0 });
    await this.apply({ kind: "step", action: "finish" });
    await this.eventually("the first exchange to end", () => this.exchanges.find((exchange) => !exchange.completed)?.what);
    for (const [index, session] of this.sessions.entries()) this.watch(session.connect(), `session ${index} joins`);
    // Until its events stream is open a session cannot hear another tab's queue (see followGap.test.ts): the play starts once every one hears.
    await this.settle(
      "every session joined",
      () =>
        this.exchanges.find((exchange) => !exchange.completed)?.what ?? (this.sessions.every((session) => session.following) ? undefined : "not following yet"),
    );
  }

  /** Plays `command` (or skips it when it does not apply to the model's state), then waits until everything shows what the model predicts. */
  async apply(command: QueueCommand): Promise<void> {
    const what = describeCommand(command);
    const model = this.model;
    switch (command.kind) {
      case "send": {
        if (command.policy === "refuse" && !model.plainSendApplies()) return;
        const index = command.session % this.sessions.length;
        // On an idle thread the user sends once the page shows the last run ended (the Session's exchange is over).
        if (model.live === undefined && model.awaiting === undefined) await this.upToDate(index);
        const session = this.sessions[index]; // after `upToDate`, which may have reloaded the tab
        const k = this.next++;
        const [messageId, runId] = [`m${k}`, `r${k}`];
        this.played.push(`${what} (${messageId} as ${runId})`);
        const exchange = this.watch(
          session.send({ id: messageId, role: "user", content: `message ${k}` }, { whileRunning: command.policy, runId }),
          `send ${messageId}`,
        );
        this.sends.set(runId, exchange);
        const fate = model.send(messageId, runId, command.policy, index);
        return this.settle(what, () => this.decided(exchange, fate));
      }
      case "step": {
        const runId = model.live?.runId;
        if (runId === undefined) return;
        this.played.push(`${what} in ${runId}`);
        await this.eventually(`the agent of ${runId} to wait for an action`, () => (this.server.agent.waiting(runId) ? undefined : "not waiting"));
        this.server.agent.step(runId, command.action);
        model.step(command.action);
        const awaited = model.awaiting;
        const calling = command.action === "clientTool" && awaited?.kind === "tool" ? awaited.toolCallId : undefined;
        return this.settle(what, () => (calling === undefined || this.tools.waiting(calling) ? undefined : `no session executes ${calling}`));
      }
      case "stop": {
        const live = model.live;
        if (live?.runId === undefined) return;
        this.played.push(`stop ${live.runId} from ${live.session}`);
        const session = this.sessions[live.session];
        let answer = "idle";
        await this.eventually(`session ${live.session} to stop ${live.runId}`, async () => {
          answer = await session.stop();
          // `ended`: the run the session still holds is over (an interrupted one whose end it has not read yet); it holds the live one next
          return answer === "idle" || answer === "ended" ? `it answers ${answer}` : undefined;
        });
        expect({ stop: live.runId, answer }).toEqual({ stop: live.runId, answer: "stopping" });
        model.endLive();
        return this.settle(what);
      }
      case "resume": {
        const awaited = model.awaiting;
        if (awaited?.kind !== "interrupt") return;
        const session = this.sessions[awaited.session];
        const runId = `r${this.next++}`;
        this.played.push(`resume ${awaited.interruptId} from ${awaited.session} as ${runId}`);
        await this.eventually(`session ${awaited.session} to be idle with interrupt ${awaited.interruptId}`, () =>
          !session.running && session.interrupts.some((pending) => pending.id === awaited.interruptId) ? undefined : "not yet",
        );
        this.watch(session.resume([{ interruptId: awaited.interruptId, status: "resolved" }], { runId }), `resume as ${runId}`);
        model.resume(runId);
        return this.settle(what);
      }
      case "answerTool": {
        const awaited = model.awaiting;
        if (awaited?.kind !== "tool") return;
        this.played.push(`answer ${awaited.toolCallId}`);
        this.tools.answer(awaited.toolCallId);
        model.answerTool();
        return this.settle(what);
      }
      case "cancel": {
        const queued = model.sends.filter((sent) => sent.queued);
        if (queued.length === 0) return;
        const target = queued[command.pick % queued.length];
        const index = command.session % this.sessions.length;
        this.played.push(`cancel ${target.runId} from ${index}`);
        const before = target.fate;
        model.cancel(target.runId);
        const answer = await this.sessions[index].cancelQueued(target.runId);
        expect({ cancel: target.runId, fate: before, answer, allowed: CANCEL_ANSWERS[before].includes(answer) }).toEqual({
          cancel: target.runId,
          fate: before,
          answer,
          allowed: true,
        });
        return this.settle(what);
      }
      case "cut":
        this.played.push(`cut (${this.server.proxy.cutOpen()} connections)`);
        return this.settle(what);
      case "advance": {
        const live = model.live?.runId;
        this.played.push(`advance the clock${live === undefined ? "" : ` (${live} is abandoned)`}`);
        if (live !== undefined)
          await this.eventually(`the agent of ${live} to wait for an action`, () => (this.server.agent.waiting(live) ? undefined : "not waiting"));
        this.server.clock.advance(LEASE_MS + QUEUE_RECHECK_MS);
        model.endLive();
        // The producer comes back and finds its run over: its next append is refused, and its client learns the end.
        if (live !== undefined && this.server.agent.waiting(live)) this.server.agent.step(live, "finish");
        return this.settle(what);
      }
    }
  }

  /**
   * Ends every run the model still has going (finishing the live one, answering an interrupt or a
   * client tool), waits for every exchange to complete, and checks the invariants.
   */
  async finish(): Promise<void> {
    for (let guard = 0; this.model.live !== undefined || this.model.awaiting !== undefined; guard++) {
      if (guard > 100) throw new Error("expected the thread to come to rest within 100 steps"); // a guard against a loop
      if (this.model.live !== undefined) await this.apply({ kind: "step", action: "finish" });
      else if (this.model.awaiting?.kind === "interrupt") await this.apply({ kind: "resume" });
      else await this.apply({ kind: "answerTool" });
    }
    await this.eventually("every exchange to complete", () => this.exchanges.find((exchange) => !exchange.completed)?.what);
    await this.checkEnds();
    await this.checkRuns();
    await this.checkSessions();
  }

  /** Each sent message once on the path when it ran or was taken, never when refused or cancelled; each exchange one `done`, which says its fate. */
  private async checkEnds(): Promise<void> {
    const { path } = await storeView(this.server.store);
    for (const sent of this.model.sends) {
      const times = path.filter((id) => id === sent.messageId).length;
      expect({ message: sent.messageId, fate: sent.fate, times }).toEqual({
        message: sent.messageId,
        fate: sent.fate,
        times: sent.fate === "ran" || sent.fate === "taken" ? 1 : 0,
      });
      const exchange = this.sends.get(sent.runId);
      const expected = END_OF_FATE[sent.fate];
      if (exchange === undefined || expected === undefined) continue;
      expect({ message: sent.messageId, fate: sent.fate, ends: donesOf(exchange).map((end) => end.kind) }).toEqual({
        message: sent.messageId,
        fate: sent.fate,
        ends: [expected],
      });
    }
    for (const exchange of this.exchanges) {
      if (exchange.failure !== undefined) throw new Error(`expected ${exchange.what}'s updates never to error, but they did`, { cause: exchange.failure });
      const last = exchange.updates[exchange.updates.length - 1];
      expect({ exchange: exchange.what, dones: donesOf(exchange).length, last: last?.kind }).toEqual({ exchange: exchange.what, dones: 1, last: "done" });
    }
  }

  /** The runs began in the model's order, one per id; each log passes both verifiers; none queued began while the thread waited for answers. */
  private async checkRuns(): Promise<void> {
    expect(this.server.begun.map((run) => run.runId)).toEqual(this.model.started);
    const queued = new Set(this.model.sends.filter((sent) => sent.queued).map((sent) => sent.runId));
    let awaiting: string | undefined;
    for (const { runId, events } of await runLogs(this.server)) {
      if (queued.has(runId) && awaiting !== undefined) throw new Error(`queued run ${runId} started while the thread waited on ${awaiting}`);
      try {
        await expectAccepted(events);
      } catch (error) {
        throw new Error(`run ${runId}'s log: ${error instanceof Error ? error.message : String(error)}\n${JSON.stringify(events)}`, { cause: error });
      }
      const end = events[events.length - 1];
      awaiting = undefined;
      if (end.type === "RUN_FINISHED" && end.outcome?.type === "interrupt") awaiting = `interrupts of ${runId}`;
      if (end.type === "RUN_FINISHED" && end.outcome?.type === "success" && (end.outcome.pendingToolCallIds?.length ?? 0) > 0)
        awaiting = `client tools of ${runId}`;
    }
    // Once per session: a second tab that reads the thread again while it waits on a client tool runs the call too (its connect()
    // executes the pending calls, docs/threads.md#pending-client-tools); only one follow-up is recorded, which the run order above checks.
    const executed = this.tools.executions.map((execution) => `${execution.toolCallId} by session ${execution.session}`);
    expect(executed).toEqual([...new Set(executed)]);
  }

  /**
   * A lone Session showed every run as it happened: its path is the store's. With two, each
   * Session joined again shows every message of the store's path once and no queue (the order can
   * differ: a tab does not follow another tab's plain runs, and a join's MESSAGES_SNAPSHOT merges
   * into the local order, docs/rules.md#A10), and a fresh Session (a reload) shows the path itself.
   */
  private async checkSessions(): Promise<void> {
    const { path } = await storeView(this.server.store);
    if (this.sessions.length === 1) expect({ lone: pathOf(this.sessions[0].messages) }).toEqual({ lone: path });
    const fresh = new Session(new HttpTransport(this.server.url, { headers: as(USER) }), { threadId: THREAD, newId: counter("fresh") });
    const sessions = [...this.sessions, fresh];
    for (const [index, session] of sessions.entries()) {
      await this.eventually(`session ${index} to be idle`, () => (session.running ? "it is running" : undefined));
      const joined = this.watch(session.connect(), `session ${index} joins again`);
      await this.eventually(`session ${index} to join again`, () => (joined.completed ? undefined : "joining"));
      const shown = pathOf(session.messages);
      const exact = session === fresh || this.sessions.length === 1;
      expect({
        session: index,
        ends: donesOf(joined).map((end) => end.kind),
        shown: exact ? shown : [...shown].sort(),
        queued: session.queued.map((entry) => entry.id),
      }).toEqual({
        session: index,
        ends: ["success"],
        shown: exact ? path : [...path].sort(),
        queued: [],
      });
    }
    fresh.close();
  }

  /**
   * Waits until session `index` is idle, and joins the thread again if it does not show the path
   * (another tab's runs): a send that runs now is anchored at the last message the session knows,
   * and one behind the path's end would fork the thread (docs/threads.md#the-anchor-rule), which
   * is the branches' contract, not the queue's.
   */
  private async upToDate(index: number): Promise<void> {
    const session = this.sessions[index];
    await this.eventually(`session ${index} to be idle`, () => (session.running ? "it is running" : undefined));
    if (JSON.stringify(pathOf(session.messages)) === JSON.stringify(this.model.path)) return;
    const joined = this.watch(session.connect(), `session ${index} catches up`);
    await this.eventually(`session ${index} to catch up`, () => (joined.completed ? undefined : "joining"));
    // A re-read the session began for itself meanwhile (its events stream came back after a cut) shows as running: a page
    // sends once `running` is false, so the play does too (checked in the same turn as the send that follows).
    await this.eventually(`session ${index} to be idle`, () => (session.running ? "it is running" : undefined));
    if (JSON.stringify(pathOf(session.messages)) === JSON.stringify(this.model.path)) return;
    // A join merges its snapshot into the local order (docs/rules.md#A10): a tab that missed another tab's run before its own queued
    // one keeps them out of order and its next send would be refused (reported on #24). The page is reloaded instead.
    this.reloads++;
    session.close();
    const reloaded = this.newSession(index, `s${index}r${this.reloads}`);
    this.sessions[index] = reloaded;
    const rejoined = this.watch(reloaded.connect(), `session ${index} reloads`);
    await this.eventually(`session ${index} to reload`, () =>
      rejoined.completed && reloaded.following ? undefined : rejoined.completed ? "not following yet" : "joining",
    );
  }

  /** What the send still lacks to show the fate the model gave it, if anything. */
  private decided(exchange: Exchange, fate: Fate): string | undefined {
    const ends = donesOf(exchange).map((end) => end.kind);
    switch (fate) {
      case "refused":
      case "taken":
        return ends.length === 0 ? `${exchange.what} has not ended (${fate})` : undefined;
      case "waiting":
        return exchange.updates.some((update) => update.kind === "queued") ? undefined : `${exchange.what} has no queued update`;
      case "ran":
      case "cancelled":
        return undefined;
    }
  }

  /** Waits until the store shows the model's view, every session lists the model's queue and shows no message twice, and `more` holds. */
  private async settle(what: string, more: () => string | undefined = () => undefined): Promise<void> {
    await this.eventually(`the thread to settle after ${what}`, async () => {
      const expected = this.model.view();
      const actual: ModelView = await storeView(this.server.store);
      if (expected.live === "?" && actual.live !== null && !this.model.started.includes(actual.live)) {
        this.model.learnRunId(actual.live); // the tool follow-up's id, minted by the Session
        return "learned the follow-up's id";
      }
      if (JSON.stringify(actual) !== JSON.stringify(expected)) return `the store shows ${JSON.stringify(actual)}, the model ${JSON.stringify(expected)}`;
      for (const [index, session] of this.sessions.entries()) {
        const twice = duplicateIn(session.messages);
        if (twice !== undefined) throw new Error(`session ${index} shows message ${twice} twice: ${JSON.stringify(pathOf(session.messages))}`);
        // A running session re-reads what its cut events stream missed only once its run ends (ThreadFollower): its list is checked when idle.
        const queued = session.queued.map((entry) => entry.id);
        if (!session.running && JSON.stringify(queued) !== JSON.stringify(expected.queue)) return `session ${index} lists the queue ${JSON.stringify(queued)}`;
      }
      if (this.sessions.length === 1 && JSON.stringify(pathOf(this.sessions[0].messages)) !== JSON.stringify(expected.path))
        return `the lone session shows ${JSON.stringify(pathOf(this.sessions[0].messages))}`;
      return more();
    });
  }

  /** Waits until `check` answers nothing (it answers what is still missing), looking again after each turn of the event loop. */
  private async eventually(what: string, check: () => string | undefined | Promise<string | undefined>): Promise<void> {
    let missing: string | undefined;
    for (let turn = 0; turn < SETTLE_TURNS; turn++) {
      missing = await check();
      if (missing === undefined) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    throw new Error(`expected ${what} within ${SETTLE_TURNS} event-loop turns, but ${missing ?? "?"}`);
  }

  private watch(updates$: Observable<Update<unknown>>, what: string): Exchange {
    const exchange: Exchange = { what, updates: [], completed: false };
    this.exchanges.push(exchange);
    updates$.subscribe({
      next: (update) => exchange.updates.push(update),
      complete: () => (exchange.completed = true),
      error: (error: unknown) => {
        exchange.failure = error;
        exchange.completed = true;
      },
    });
    return exchange;
  }
}
