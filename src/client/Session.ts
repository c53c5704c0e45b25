/** A conversation on one thread: runs, and everything they built, readable and observable (docs/seeds.md#seed-001, docs/client.md#session-and-updates). */
import { defer, Observable, of, tap, type Observable as Obs } from "rxjs";
import { forkForwardedProps, type BranchGroup } from "../protocol/branchMeta";
import { BranchGroups, type BranchInfo } from "./branches/BranchGroups";
import { editPlan, regeneratePlan, type ForkPlan } from "./branches/forkPlan";
import { PathFork } from "./branches/PathFork";
import { ThreadFollower } from "./branches/ThreadFollower";
import { untilShown } from "./branches/untilShown";
import { withPostedInput } from "./branches/withPostedInput";
import type { RunAgentInput, Tool } from "../protocol/input";
import type { Message, ToolMessage, UserMessage } from "../protocol/messages";
import type { Interrupt, ResumeEntry } from "../protocol/outcomes";
import { checkResume } from "./checkResume";
import { ClientError } from "../thread/ClientError";
import { followRun } from "./followRun";
import type { TransportItem } from "./followConnection";
import { checkLimit, HistoryWindow } from "./HistoryWindow";
import { hydrate } from "./hydrate";
import { KnownHistory } from "./KnownHistory";
import { ownsHistory } from "./ownsHistory";
import { joinThread, noConnect } from "./joinThread";
import type { ClientState } from "../thread/reducers/ClientState";
import { runInput } from "./runInput";
import { askExchange, type AskOptions, type AskResult } from "./askExchange";
import { sentMessageUpdates } from "./sentMessageUpdates";
import { RunSlot, type ActiveRun } from "./RunSlot";
import type { RunOptions, SessionOptions } from "./SessionOptions";
import { SessionViews, type SessionSnapshot, type ViewChannel } from "./SessionViews";
import { failedExchange } from "./failedExchange";
import { checkMaxToolRoundtrips, DEFAULT_MAX_TOOL_ROUNDTRIPS, toolLoop } from "./toolLoop";
import type { ResolvedTools } from "./tools/resolveTools";
import { RunningToolCalls, type RunningToolCall } from "./tools/RunningToolCalls";
import { isConnectionNotice } from "./transports/ConnectionNotice";
import { isQueueNoticeItem } from "./transports/QueueNoticeItem";
import type { ConnectRequest, StopResult, Transport } from "./transports/Transport";
import { isDecodeWarning } from "../wire/DecodeWarning";
import { afterAnswer } from "../rx/afterAnswer";
import { mapDefined } from "../rx/mapDefined";
import type { HistoryPage } from "../thread/threadList";
import type { Subagent, Update } from "../thread/Update";
import { takeBack, withdrawRefusedSend, type RefusedSendOptions } from "./withdrawRefusedSend";
import { takeBackAnswers } from "./answeredElsewhere";
import type { QueuedMessage } from "../protocol/queueMeta";
import { QueueList } from "./queue/QueueList";
import { policyRefusal, SessionQueue } from "./queue/SessionQueue";
import type { WireListener } from "./transports/WireTap";
import type { CancelQueuedResult } from "./transports/Transport";

export type { SessionSnapshot } from "./SessionViews";
export type { AskOptions, AskResult } from "./askExchange";
export type { BranchInfo } from "./branches/BranchGroups";
export type { ConnectOptions, RunOptions, SessionOptions } from "./SessionOptions";
import type { ConnectOptions } from "./SessionOptions";

/**
 * A client session on one thread. `send` and `resume` are cold: each subscription runs one
 * exchange (transport → `normalizeChunks` → `verifyEvents` (report mode) → `applyEvents` per run)
 * and emits its Update stream, which never errors and ends with exactly one `done` (docs/seeds.md#seed-001).
 * Messages, state, pending interrupts and the subagent registry live on the session across runs.
 *
 * - Client tools (`tools` holding `ClientTool`s): when a run ends `success` leaving calls to them,
 *   the session executes them, appends their tool messages and starts the follow-up run itself,
 *   within the same subscription (`toolLoop`): the runs are separated by a `run` update, and the
 *   subscription still has one `done`, last. `runningToolCalls` lists the calls executing now,
 *   which a view can answer (`respond`). Bounded by `maxToolRoundtrips`.
 *
 * - `send(text)` appends the user message first (docs/rules.md#E10), so the agent's first message is at index 1.
 *   A send refused before any event with an answer that proves nothing was recorded (403, 409,
 *   422, 429, a 503 from the store) takes it back out: a `messages` update, and `done` failed
 *   with the message as `unsent`; after a network failure it stays, and the error says so.
 * - One run at a time: subscribing while a run is active yields `error` (`config`) and `done`
 *   failed in that subscription only; the active run is untouched.
 * - Pre-flight (docs/rules.md#I5): with interrupts pending, the run's `resume` must answer every one (the
 *   error lists the uncovered ids) and none may have expired, unless it is cancelled (the error
 *   says "expired"); nothing is sent then.
 * - The input carries the threadId, a new runId, the messages minus activity messages (docs/rules.md#A21),
 *   the tools, context and forwardedProps (per run, else per session), the raw state, `resume`,
 *   and `protocolVersion: "1.0"` (docs/rules.md#A5, as the official 1.0.0 client declares).
 *   To a server that owns the history (docs/threads.md#the-anchor-rule) only what it lacks is
 *   posted: the last message it is known to store, and what follows (`KnownHistory`).
 * - Material the decoder stripped (AG-UI 1.1) and a RUN_STARTED declaring a newer or
 *   uninterpretable protocol version are `error` updates of kind `warning`, where they happened;
 *   they never end the run.
 * - Reads (`messages`, `rawState`, `state`, `interrupts`, `subagents`, `subagent(id)`, `running`)
 *   are immutable snapshots; `messages$`, `state$`, `rawState$`, `interrupts$`, `subagents$`,
 *   `running$` replay the current value on subscription and emit each change (Angular's async
 *   pipe); `subscribe(listener)` + `getSnapshot()` fit React's `useSyncExternalStore`.
 * - Durable threads (docs/durability.md#stores-and-routes): the constructor hydrates from stored `messages`, `rawState` and
 *   `interrupts`; `connect()` joins the thread on the server (its history, state, pending
 *   interrupts and the live tail of a run in progress), `stop()` cancels the active run there. A
 *   run whose stream is cut and resumed by the transport stays one run: no event twice, none
 *   missing, one `done`, with `connection` updates where it was cut and where it came back.
 *   Unsubscribing only detaches from a server that keeps the run (and aborts it on one that
 *   does not, as always).
 *
 * @example
 * const session = new Session(new HttpTransport("/agent"), { threadId: "thread-1" });
 * session.send("Hello").subscribe((update) => {
 *   if (update.kind === "message") console.log(update.message);
 *   if (update.kind === "done") console.log("ended:", update.end.kind);
 * });
 */
export class Session<S = unknown> {
  private readonly store: ClientState<S>;
  /** One run at a time: the active exchange or joined run, and its run id for `stop()`. */
  private readonly slot = new RunSlot(() => {
    this.notify("running");
    if (!this.slot.running) this.follower.idle();
  });
  private readonly views = new SessionViews<S>(() => ({
    messages: this.messages,
    rawState: this.rawState,
    state: this.state,
    interrupts: this.interrupts,
    subagents: this.subagents,
    running: this.running,
    runningToolCalls: this.runningToolCalls,
    branches: this.branchGroups,
    queued: this.queued,
  }));
  /** The thread's waiting messages (docs/queue.md#in-the-client). */
  private readonly queue = new QueueList();
  /** The sibling groups along the path (docs/client.md#branches). */
  private readonly groups = new BranchGroups();
  /** Hears other tabs switch this thread's branches, once connected (docs/client.md#branches). */
  private readonly follower: ThreadFollower;
  /** The session's own re-read of the thread (a switch), until it ends or the session is closed. */
  private rereading: { readonly subscription: { unsubscribe(): void } } | undefined;
  /** A re-read's MESSAGES_SNAPSHOT is still to come: it replaces the path shown (`leavePath`). */
  private rereadingPath = false;
  private readonly toolCalls = new RunningToolCalls(() => this.notify("toolCalls"));
  /** The messages the server is known to store: a server that owns the history is posted only the rest. */
  private readonly known = new KnownHistory();
  /** What part of the thread's history is held when it was joined with a limit (docs/threads.md#in-the-client). */
  private readonly window = new HistoryWindow();
  private older: Promise<HistoryPage> | undefined;
  /** The session's own tools, resolved (and their client tools tracked) once. */
  private readonly tools: ResolvedTools;
  private readonly newId: () => string;
  private readonly now: () => number;
  /** Sends with a policy, the queue list's inputs and cancels (docs/queue.md#in-the-client). */
  private readonly sending: SessionQueue<S>;

  /** The listener on what the transport receives (`listenWire`), when an inspector attached one. */
  private wire: WireListener | undefined;

  /** The options minus the StateSpec (kept apart so that `Session<S>` stays covariant in S). */
  private readonly options: Omit<SessionOptions<S>, "state">;

  constructor(
    private readonly transport: Transport,
    options: SessionOptions<S>,
  ) {
    const { state: _spec, ...rest } = options;
    this.options = rest;
    this.store = hydrate(options.state, options);
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID());
    this.now = options.now ?? Date.now;
    this.tools = this.toolCalls.resolve(options.tools ?? []);
    const refused = checkMaxToolRoundtrips(options.maxToolRoundtrips);
    if (refused !== undefined) throw refused;
    this.sending = new SessionQueue<S>({
      transport,
      threadId: options.threadId,
      queue: this.queue,
      slot: this.slot,
      known: this.known,
      messages: () => this.messages,
      owned: () => ownsHistory(transport),
      now: this.now,
      notify: () => this.notify("queue"),
    });
    this.follower = new ThreadFollower({
      transport,
      threadId: options.threadId,
      running: () => this.running,
      reread: () => void this.reread().catch(() => undefined),
      heard: (notice) => this.sending.heard(notice),
    });
  }

  /**
   * Attaches the one listener on what this session's transport receives (docs/observability.md#inspector),
   * or detaches it (`undefined`): each stream's start, every event as the transport decoded it, each
   * run's end, and, from a transport that reads bytes (`HttpTransport`) for streams begun while it is
   * attached, each response body's bytes before decoding. What `agui-rx/inspector` reads
   * (`inspectSession`, `wireOf`), with no second connection; use those, which share the slot. With
   * no listener, an event costs one field read.
   *
   * @example
   * session.listenWire({ stream: () => {}, event: (event) => console.log(event.type), end: () => {}, opened: () => {}, chunk: () => {} });
   */
  listenWire(listener: WireListener | undefined): void {
    this.wire = listener;
  }

  /** The thread this session talks on. */
  get threadId(): string {
    return this.options.threadId;
  }

  /** The conversation, in order; a frozen array, the same object until it changes. */
  get messages(): readonly Message[] {
    return this.store.messages.snapshot();
  }

  /** The state as JSON, exactly as the events built it. */
  get rawState(): unknown {
    return this.store.rawState;
  }

  /** The state decoded with the session's StateSpec (the JSON itself without one); `undefined` while it does not decode. */
  get state(): S | undefined {
    return this.store.state;
  }

  /** Interrupts the last interrupted run left pending; answered with `resume`. */
  get interrupts(): readonly Interrupt[] {
    return this.store.interrupts;
  }

  /** Every subagent invocation announced so far, across runs, in announcement order. */
  get subagents(): readonly Subagent[] {
    return this.store.subagentList();
  }

  /** Whether `stop()` can ask a server to cancel runs (the transport has a `stop`); the server may still answer `unavailable`. */
  get canStop(): boolean {
    return this.transport.stop !== undefined;
  }

  /** Whether the server holds messages older than the first one held (after a join with a limit; `loadOlder` reads them). */
  get hasOlder(): boolean {
    return this.window.hasOlder;
  }

  /**
   * The sibling groups along the path (docs/threads.md#the-tree): from the thread's connect prelude,
   * changed live by a run that forks; empty without a server that owns the history. The same
   * array until it changes; the selected sibling's id is filled in from the path.
   */
  get branchGroups(): readonly BranchGroup[] {
    return this.groups.groups(this.messages);
  }

  /**
   * Whether the session hears other tabs switch this thread's branches now (docs/client.md#branches):
   * after a `connect()`, on a server that owns the history and follows one thread's events, once
   * its stream answered; until `close()`.
   */
  get following(): boolean {
    return this.follower.following;
  }

  /**
   * The thread's waiting messages, in the order they will run (docs/queue.md#in-the-client): this
   * session's sends with a policy and other tabs' (from the connect prelude and the thread's
   * events). A message leaves the list when its run starts, its steer is taken or it is cancelled;
   * it is shown here, not in `messages`, until its recorded events arrive. The same frozen array until it changes.
   */
  get queued(): readonly QueuedMessage[] {
    return this.queue.list;
  }

  /** Whether a run is active. */
  get running(): boolean {
    return this.slot.running;
  }

  /** The client tool calls executing now, in the order they started; a human-in-the-loop tool's call waits here for `respond`. */
  get runningToolCalls(): readonly RunningToolCall[] {
    return this.toolCalls.list;
  }

  /** The registry entry of one subagent invocation, e.g. to head the group of a message's `subagentRunId`. */
  subagent(id: string): Subagent | undefined {
    return this.store.subagents.get(id);
  }

  /** The conversation; replays the current value. */
  readonly messages$: Obs<readonly Message[]> = this.views.view("messages", () => this.messages);
  /** The typed state; replays the current value. */
  readonly state$: Obs<S | undefined> = this.views.view("state", () => this.state);
  /** The raw state; replays the current value. */
  readonly rawState$: Obs<unknown> = this.views.view("state", () => this.rawState);
  /** Pending interrupts; replays the current value. */
  readonly interrupts$: Obs<readonly Interrupt[]> = this.views.view("interrupts", () => this.interrupts);
  /** The subagent registry; replays the current value. */
  readonly subagents$: Obs<readonly Subagent[]> = this.views.view("subagents", () => this.subagents);
  /** Whether a run is active; replays the current value. */
  readonly running$: Obs<boolean> = this.views.view("running", () => this.running);
  /** The client tool calls executing now; replays the current value. */
  readonly runningToolCalls$: Obs<readonly RunningToolCall[]> = this.views.view("toolCalls", () => this.runningToolCalls);
  /** The thread's waiting messages; replays the current value. */
  readonly queued$: Obs<readonly QueuedMessage[]> = this.views.view("queue", () => this.queued);
  /** The sibling groups along the path; replays the current value. */
  readonly branchGroups$: Obs<readonly BranchGroup[]> = this.views.view(["branches", "messages"], () => this.branchGroups);

  /**
   * Where the path message `messageId` stands among its siblings (docs/client.md#branches): a user
   * message among its edits, any other message among the answers to its question (`index` of
   * `count`, `siblingIds` the siblings' first message ids). A message without siblings, or not on
   * the path, is `{ index: 0, count: 1, siblingIds: [its group's head] }`.
   *
   * @example
   * const { index, count, siblingIds } = session.branches("a2"); // "2 / 2"; session.selectBranch("a2", 0) shows the first
   */
  branches(messageId: string): BranchInfo {
    return this.groups.info(this.messages, messageId);
  }

  /**
   * Calls `listener` after every change; returns the unsubscribe function (`useSyncExternalStore`'s
   * `subscribe`).
   */
  readonly subscribe: (listener: () => void) => () => void = this.views.subscribe;

  /** Everything a view reads; the same object until something changes (`useSyncExternalStore`'s `getSnapshot`). */
  readonly getSnapshot: () => SessionSnapshot<S> = this.views.getSnapshot;

  /**
   * Sends a user message (text, or a whole `UserMessage`) and runs the agent once; cold.
   *
   * With `whileRunning` other than `refuse` (docs/queue.md#in-the-client) it is posted even while
   * a run is live (this session's or another tab's) and does not take the session's run slot: the
   * message is not appended to `messages` but listed in `queued` while it waits; `queued` updates
   * tell each of its statuses, then its run follows in the same subscription once it started and
   * the session's run before it is done (its message arrives with the run's RUN_STARTED), ending
   * with one `done`; `cancelled` ends with `done` cancelled, a taken steer with `done` success.
   * Unsubscribing only detaches; `cancelQueued` cancels.
   *
   * @example
   * session.send("What is on the board?").subscribe(render);
   * session.send("And the done column?", { whileRunning: "queue" }).subscribe(render);
   */
  send(message: string | UserMessage, runOptions: RunOptions = {}): Observable<Update<S>> {
    const policy = runOptions.whileRunning ?? "refuse";
    if (policy === "refuse") return this.start(runOptions, undefined, message);
    return defer(() => {
      const loop = this.loopOptions(runOptions);
      if (loop instanceof ClientError) return failedExchange<S>(loop);
      const user: UserMessage = typeof message === "string" ? { id: this.newId(), role: "user", content: message } : message;
      const id = runOptions.runId ?? this.newId();
      // follow-up runs of the tool loop answer the thread's client tool calls: plain posts, which pass the queue
      const plain: RunOptions = { ...runOptions, runId: id, whileRunning: "refuse" };
      const input = (owned: boolean) => this.input(plain, undefined, loop.tools.wire, owned);
      return this.sending.send({ user, id, policy, input, run: (items, run) => this.loop(this.follow(items, false, asDelivered), run, plain, loop, false) });
    });
  }

  /**
   * `send` as one promise, for scripts and servers (docs/client.md#ask): the whole exchange (its
   * client-tool follow-up runs included) settles once, at its `done`. Resolves `{ end, messages }`
   * on every end once a run could start: `success`, `interrupted` (answer `interrupts` with
   * `resume`), `cancelled`, `failed` (the end says which, `end.message` why; the `error` updates
   * went to `onUpdate`). Rejects only when nothing could start, with the `ClientError` naming why: a
   * configuration error (`config`: a run already active, interrupts not answered, invalid tools), a
   * refusal before any run (`http`: 401, 403, 409, 422, 429, 503…), a request that reached no server
   * (`transport`, code `refused` / `unanswered`); or when `signal` aborts (code `abort`). The
   * Observable API (`send`) is unchanged; `onUpdate` hears its updates as they come.
   *
   * @example
   * const { end, messages } = await session.ask("What is on the board?");
   * if (end.kind === "success") console.log(messages.at(-1)?.content);
   */
  ask(message: string | UserMessage, options: AskOptions<S> = {}): Promise<AskResult> {
    const { onUpdate, signal, ...runOptions } = options;
    return askExchange(this.send(message, runOptions), () => this.messages, { onUpdate, signal });
  }

  /**
   * Cancels a waiting message of the thread (`transport.cancelQueued`, `POST {url}/cancel`,
   * docs/queue.md#cancel), this session's or another tab's: `cancelled` (it leaves `queued`; its
   * sender's stream ends with `done` cancelled), `started` or `taken` (too late), `unknown` (no
   * such waiting message). Rejects with a `ClientError`: `config` when the transport cannot cancel,
   * else the request's failure.
   *
   * @example
   * await session.cancelQueued(session.queued[0].id); // "cancelled"
   */
  cancelQueued(id: string): Promise<CancelQueuedResult> {
    return this.sending.cancel(id);
  }

  /**
   * Edits the user message `messageId` of the path: a sibling of it with a new id and `content`,
   * then a run from there, as `send` runs (docs/client.md#branches). The path is cut right before
   * the edited message and the new message shown at once (a `messages` update first); pending
   * interrupts go with the branch left behind. With a server that owns the history only the new
   * message is posted, naming the fork point (`forwardedProps["agui-rx"].forkAfter`); the old
   * message stays a sibling (`branches`, `selectBranch`). Without one the cut path is posted whole:
   * the client's history is the history, and nothing of the old branch is kept. A run the server
   * refused before recording anything puts the path back, as `send` takes its message back.
   * Refused (`config`) for a message that is not a user message of the path, or while a run is active.
   *
   * @example
   * session.edit("u2", "And in Paris?").subscribe(render);
   */
  edit(messageId: string, content: UserMessage["content"], runOptions: RunOptions = {}): Observable<Update<S>> {
    return this.fork((path) => editPlan(path, messageId, content, this.newId()), runOptions);
  }

  /**
   * Asks for another answer to the user message at or before `messageId` (the path's last user
   * message without it), as `send` runs (docs/client.md#branches): the path is cut right after that
   * message. With a server that owns the history no message is posted, only the fork point
   * (`forkAfter`), and the agent starts from the state the question's run started from; the old
   * answer stays a sibling. Without one the cut path is posted whole (with the session's state).
   *
   * @example
   * session.regenerate().subscribe(render); // another answer to the last question
   */
  regenerate(messageId?: string, runOptions: RunOptions = {}): Observable<Update<S>> {
    return this.fork((path) => regeneratePlan(path, messageId), runOptions);
  }

  /**
   * Shows another sibling (docs/client.md#branches): asks the server to switch the path to the
   * sibling `index` of the group of `messageId` (`transport.selectBranch`, `POST {url}/threads/{threadId}/path`),
   * then reads the thread again as `connect()` does (with the session's `historyLimit`); resolves
   * once the new path's messages, groups and state are shown (the views get `messages`, `state`
   * and `branches` changes). Rejects with a `ClientError`: `config` while a run is active, for an
   * index that is not a whole number of at least 0, or when the transport cannot select branches
   * or join threads; the server's refusal (404 a message not on the path, 422 no such sibling, 409
   * a run is live elsewhere).
   *
   * @example
   * await session.selectBranch("a2", 0); // the first answer again
   */
  async selectBranch(messageId: string, index: number): Promise<void> {
    const transport = this.transport;
    if (!Number.isInteger(index) || index < 0)
      throw new ClientError("config", `selectBranch: expected a sibling index of at least 0, but got ${String(index)}`);
    if (this.running) throw new ClientError("config", "selectBranch: a run is active on this session; wait for its done update before switching branches");
    if (transport.selectBranch === undefined || transport.connect === undefined)
      throw new ClientError(
        "config",
        "this session's transport cannot select a branch (it needs selectBranch and connect): use HttpTransport against a server that owns the history",
      );
    await transport.selectBranch({ threadId: this.threadId, messageId, index });
    return this.reread();
  }

  /**
   * Stops what the session does in the background (docs/client.md#branches): following the
   * thread's switches from other tabs, and a re-read in progress. Runs are untouched (unsubscribe
   * them). A later `connect()` follows the thread again.
   *
   * @example
   * useEffect(() => () => session.close(), [session]);
   */
  close(): void {
    this.follower.stop();
    this.rereading?.subscription.unsubscribe();
    this.rereading = undefined;
  }

  /**
   * Answers the pending interrupts and runs the agent once; cold. `answers` must cover every
   * pending interrupt (docs/rules.md#I4, docs/rules.md#I5).
   *
   * @example
   * session.resume([{ interruptId: "i1", status: "resolved", payload: { approved: true } }]).subscribe(render);
   */
  resume(answers: readonly ResumeEntry[], runOptions: RunOptions = {}): Observable<Update<S>> {
    return this.start(runOptions, answers, undefined);
  }

  /**
   * Joins the thread on the server (docs/durability.md#stores-and-routes), cold: its history (MESSAGES_SNAPSHOT, which
   * replaces what the session held), state, pending interrupts, and while a run is in progress
   * the rest of it, live, through its end; for an idle thread the stream ends at once with `done`
   * (`success`, or `interrupted` when the thread waits on interrupts). A page calls it after a
   * reload. While it streams the session is `running` and `stop()` cancels the joined run.
   * Always ends with exactly one `done` (docs/threads.md#joining-a-new-thread): a thread the caller
   * has never had is a new, empty thread (the server answers mode `new`: `done` success, and what
   * the session holds, hydrated messages and state included, stays); a server that keeps no threads
   * ends it `failed` with code `not-resumable`, a transport without `connect` with code `no-connect`
   * (each after its `error`); refused like `send` while a run is active.
   * When the joined run ends leaving calls to the session's client tools (the prelude's or the
   * run's `pendingToolCallIds`), the session executes them and sends the follow-up run as `send`
   * would, and the stream's one `done` comes after (docs/threads.md#pending-client-tools): a reload
   * during a tool's card shows the card again.
   * With a `limit` (or the session's `historyLimit`) the snapshot carries only the thread's last
   * `limit` messages, `hasOlder` says whether older ones exist, and `loadOlder` reads them; pages
   * already loaded stay in front of a later snapshot that starts inside them (docs/threads.md#in-the-client).
   *
   * @example
   * session.connect().subscribe(render); // after a reload: the conversation, then the live rest
   * session.connect({ limit: 50 }).subscribe(render); // only the last 50 messages
   */
  connect(options: ConnectOptions = {}): Observable<Update<S>> {
    return defer(() => {
      if (this.running) return failedExchange<S>(alreadyRunning("joining the thread"));
      const transport = this.transport;
      if (transport.connect === undefined) return failedExchange<S>(noConnect());
      const limit = options.limit ?? this.options.historyLimit;
      const badLimit = limit === undefined ? undefined : checkLimit(limit, "connect");
      if (badLimit !== undefined) return failedExchange<S>(badLimit);
      const run = this.slot.begin();
      const joined = joinThread(transport, this.joinRequest(limit), (runId) => (run.runId ??= runId), this.wire);
      const updates = this.loop(
        this.follow(joined, true, asDelivered),
        run,
        {},
        { tools: this.tools, max: this.options.maxToolRoundtrips ?? DEFAULT_MAX_TOOL_ROUNDTRIPS },
        true,
      );
      // A joined thread (a new one too) is followed from then on: another tab's switch of its branch is read again (ThreadFollower).
      // A join that failed (no threads on the server, a thread gone) is not: its updates are its error and its failed done.
      return this.slot.observe(updates, run).pipe(
        tap((update) => {
          if (update.kind !== "error" && !(update.kind === "done" && update.end.kind === "failed")) this.follower.start();
        }),
      );
    });
  }

  /**
   * Reads the page of `limit` messages (the session's `historyLimit`, else 50) before the oldest
   * one held (`transport.history`, `POST {url}/history`) and puts it in front: the views see a
   * `messages` change. Resolves the page as the server answered it; with nothing older (`hasOlder`
   * false, or no message held) an empty page, without asking. Calls while one is being read share
   * it; a page that arrives after a snapshot replaced the oldest message is dropped. Rejects with
   * a `ClientError` (`config` when the transport cannot read history; the request's failure).
   *
   * @example
   * scrollTop === 0 && session.hasOlder && (await session.loadOlder());
   */
  loadOlder(limit?: number): Promise<HistoryPage> {
    const transport = this.transport;
    if (transport.history === undefined)
      return Promise.reject(
        new ClientError("config", "this session's transport cannot read history (it has no history): use HttpTransport against a server that keeps threads"),
      );
    const size = limit ?? this.options.historyLimit ?? DEFAULT_HISTORY_PAGE;
    const badLimit = checkLimit(size, "loadOlder");
    if (badLimit !== undefined) return Promise.reject(badLimit);
    const oldest = this.messages[0];
    if (oldest === undefined || !this.window.hasOlder) return Promise.resolve({ messages: [], hasOlder: false });
    const request = { threadId: this.threadId, before: oldest.id, limit: size };
    return (this.older ??= transport
      .history(request)
      .then((page) => {
        if (this.window.prepend(this.store.messages, page, oldest.id)?.length) this.views.notifyUpdate({ kind: "messages", messages: this.messages });
        return page;
      })
      .finally(() => (this.older = undefined)));
  }

  /**
   * Cancels the active run on the server (`transport.stop`, `POST {url}/stop`): `stopping` (its
   * stream then ends with `done` cancelled, what it sent before kept), `ended` (it was already
   * over), `unavailable` (the transport or the server cannot stop runs: unsubscribe to abort it),
   * `idle` (no run is active, or a joined run's id has not arrived yet). Rejects with a
   * `ClientError` when the request fails. Unlike unsubscribing, which only detaches from a
   * server that keeps the run, this ends the run for every client.
   *
   * @example
   * stopButton.onclick = () => void session.stop();
   */
  async stop(): Promise<StopResult> {
    const runId = this.slot.runId;
    if (runId === undefined) return "idle";
    if (this.transport.stop === undefined) return "unavailable";
    return this.transport.stop({ threadId: this.threadId, runId });
  }

  private start(runOptions: RunOptions, resume: readonly ResumeEntry[] | undefined, message: string | UserMessage | undefined): Observable<Update<S>> {
    return defer(() => {
      const policy = policyRefusal(runOptions, "a resume");
      if (policy !== undefined) return failedExchange<S>(policy);
      if (this.running) return failedExchange<S>(alreadyRunning("starting another"));
      const refused = checkResume(this.store.interrupts, resume ?? [], this.now());
      if (refused !== undefined) return failedExchange<S>(refused);
      const loop = this.loopOptions(runOptions);
      if (loop instanceof ClientError) return failedExchange<S>(loop);
      if (message !== undefined) {
        const user: UserMessage = typeof message === "string" ? { id: this.newId(), role: "user", content: message } : message;
        const index = this.store.messages.append(user);
        this.notify("messages");
        // the user message opens the run's updates (started, its text, ended), so a view that only follows updates shows it too
        return concatFirst(sentMessageUpdates(index, user), this.exchange(runOptions, resume, loop, { message: user, withdraw: () => this.withdraw(user) }));
      }
      return this.exchange(runOptions, resume, loop);
    });
  }

  /**
   * An edit's or a regenerate's exchange: the plan made from the path at subscription, the path cut
   * at once (a `messages` update first), then the run, whose input depends on the server
   * (`forkInput`). A refusal before anything was recorded puts the path back (`PathFork.restore`).
   */
  private fork(planOf: (path: readonly Message[]) => ForkPlan | ClientError, runOptions: RunOptions): Observable<Update<S>> {
    return defer(() => {
      const policy = policyRefusal(runOptions, "an edit or a regenerate");
      if (policy !== undefined) return failedExchange<S>(policy);
      if (this.running) return failedExchange<S>(alreadyRunning("starting another"));
      const loop = this.loopOptions(runOptions);
      if (loop instanceof ClientError) return failedExchange<S>(loop);
      const plan = planOf(this.messages);
      if (plan instanceof ClientError) return failedExchange<S>(plan);
      const fork = new PathFork(this.store, this.groups, plan);
      fork.cut();
      this.notify("messages");
      if (fork.droppedInterrupts) this.notify("interrupts");
      const withdraw = () => {
        const messages = fork.restore();
        if (messages !== undefined) for (const channel of ["messages", "interrupts", "branches"] as const) this.notify(channel);
        return messages;
      };
      const input = (owned: boolean) => this.forkInput(fork, owned, runOptions, loop.tools.wire);
      const first: Update<S> = { kind: "messages", messages: this.messages };
      return concatFirst([first], this.exchange(runOptions, undefined, loop, { message: plan.sent, withdraw }, input));
    });
  }

  /**
   * A fork's run input: to a server that owns the history only the edit's message (none for a
   * regenerate) and the fork point (`forkForwardedProps`), the new sibling shown in its group at
   * once; to any other the cut path, whole.
   */
  private forkInput(fork: PathFork, owned: boolean, runOptions: RunOptions, tools: readonly Tool[]): RunAgentInput {
    const input = this.input(runOptions, undefined, tools, false);
    if (!owned) return input;
    if (fork.branched()) this.notify("branches");
    const { sent, forkAfter } = fork.plan;
    return {
      ...input,
      messages: sent === undefined ? [] : [sent],
      forwardedProps: forkForwardedProps(forkAfter, runOptions.forwardedProps ?? this.options.forwardedProps),
    };
  }

  /**
   * Right before the MESSAGES_SNAPSHOT of a re-read is applied: the path shown is left, so the
   * snapshot replaces it whole. A snapshot merges (docs/rules.md#A10): it would keep local activity
   * and reasoning messages when it has none (the left branch's here), and the local order of the
   * messages both hold (which misplaces a message of the new path between them). Older pages go
   * too: the re-read shows the path's last messages, and `loadOlder` pages the new path.
   */
  private leavePath(): void {
    this.rereadingPath = false;
    this.store.messages.reset([]);
  }

  /** Reads the thread again (a switch: ours, or another tab's): the session's one re-read, settled once the new path is shown (`untilShown`). */
  private reread(): Promise<void> {
    this.rereading?.subscription.unsubscribe();
    this.rereadingPath = true;
    const shown = untilShown(this.connect());
    this.rereading = shown;
    return shown.promise;
  }

  /** The exchange's tools and round-trip bound, or why the run cannot start (checked before anything is appended). */
  private loopOptions(runOptions: RunOptions): { readonly tools: ResolvedTools; readonly max: number } | ClientError {
    let tools: ResolvedTools;
    try {
      tools = runOptions.tools === undefined ? this.tools : this.toolCalls.resolve(runOptions.tools);
    } catch (error) {
      return new ClientError("config", `the run's tools are invalid: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const max = runOptions.maxToolRoundtrips ?? this.options.maxToolRoundtrips ?? DEFAULT_MAX_TOOL_ROUNDTRIPS;
    return checkMaxToolRoundtrips(max) ?? { tools, max };
  }

  /**
   * The runs of one `send`/`resume`: the first, then the follow-ups its client tool calls need
   * (`toolLoop`). The active run's id follows the run in flight, so that `stop()` cancels it.
   */
  private exchange(
    runOptions: RunOptions,
    resume: readonly ResumeEntry[] | undefined,
    loop: { readonly tools: ResolvedTools; readonly max: number },
    taken?: Omit<RefusedSendOptions, "heard">,
    firstInput?: (serverOwnsHistory: boolean) => RunAgentInput,
  ): Observable<Update<S>> {
    const run = this.slot.begin();
    // a fork's first run must know whether the server owns the history, whatever it would leave out
    const input = firstInput ?? ((owned: boolean) => this.input(runOptions, resume, loop.tools.wire, owned));
    const updates = this.loop(this.pipeline(input, run, firstInput !== undefined), run, runOptions, loop, false);
    return this.slot.observe(taken === undefined ? updates : updates.pipe(withdrawRefusedSend({ ...taken, heard: () => run.heard })), run);
  }

  /**
   * The client-tool loop after `first` (`toolLoop`): follow-ups are ordinary runs with the
   * exchange's options and a new run id (RunOptions.runId names the first run only). `joined`:
   * `first` is a joined thread, whose end names the calls to take up. When the transport can join
   * threads, a follow-up another session beat (docs/threads.md#pending-client-tools) yields to it: its
   * answers are taken back and the thread is joined again.
   */
  private loop(
    first: Observable<Update<S>>,
    run: ActiveRun,
    runOptions: RunOptions,
    loop: { readonly tools: ResolvedTools; readonly max: number },
    joined: boolean,
  ): Observable<Update<S>> {
    const { tools, max } = loop;
    // per exchange, so that each run and follow-up of it is traced under one span (docs/observability.md#client)
    const trace = (run.trace = this.options.telemetry?.exchange(this, joined));
    const followUp = (runId: string) => defer(() => this.pipeline((owned) => this.input({ ...runOptions, runId }, undefined, tools.wire, owned), run));
    const append = (message: ToolMessage): number => {
      const index = this.store.messages.append(message);
      this.notify("messages");
      return index;
    };
    const transport = this.transport;
    const rejoin = () =>
      defer(() => {
        run.runId = undefined; // the joined run's id comes with its RUN_STARTED
        return this.follow(
          joinThread(transport, this.joinRequest(this.options.historyLimit), (runId) => (run.runId ??= runId)),
          true,
          asDelivered,
        );
      });
    const withdraw = (answers: readonly ToolMessage[]) => {
      const messages = takeBackAnswers(this.store.messages, answers);
      if (messages !== undefined) this.notify("messages");
      return messages;
    };
    return toolLoop({
      first,
      followUp,
      tools: tools.client,
      maxToolRoundtrips: max,
      session: this,
      append,
      newId: this.newId,
      firstJoined: joined,
      ...(transport.connect === undefined ? {} : { yieldTo: { withdraw, rejoin } }),
    }).pipe(tap<Update<S>>(trace)); // `tap(undefined)` is no operator at all: no trace, no work per update
  }

  /** Takes a refused send's message back out (`takeBack`), telling the views. */
  private withdraw(sent: UserMessage): readonly Message[] | undefined {
    const messages = takeBack(this.store.messages, sent);
    if (messages !== undefined) this.notify("messages");
    return messages;
  }

  /**
   * One run of an exchange, resumed by the transport across cuts (`connection: true`). Its input is
   * made once the transport said whether the server owns the history (`serverOwnsHistory`, asked
   * once per transport, and only when the answer could leave something out): then it carries only
   * what the server does not have (docs/threads.md#the-anchor-rule).
   */
  /** What joining the thread asks for: the whole thread, or its last `limit` messages, the answer's `hasOlder` noted in the window. */
  private joinRequest(limit: number | undefined): ConnectRequest {
    return limit === undefined
      ? { threadId: this.threadId }
      : { threadId: this.threadId, limit, onHasOlder: (hasOlder: boolean) => this.window.answered(hasOlder) };
  }

  private pipeline(input: (serverOwnsHistory: boolean) => RunAgentInput, run: ActiveRun, mustAsk = false): Observable<Update<S>> {
    return afterAnswer(
      // Nothing to leave out (a fresh session's first send): nothing to ask.
      () => (mustAsk || this.known.saves(this.messages) ? ownsHistory(this.transport) : NOTHING_TO_ASK),
      (owned) => {
        const made = input(owned);
        run.runId = made.runId;
        const heard = run.trace?.items;
        // a transport that throws is a failed run, not a thrown subscribe
        const items = defer(() => this.transport.run(made, { warnings: true, connection: true, trace: run.trace, wire: this.wire }));
        return this.follow(items, false, (item) => {
          heard?.(item);
          if (isQueueNoticeItem(item)) return undefined;
          // `heard` marks the exchange's first event (the server logged the input)
          if (!run.heard && !isDecodeWarning(item) && !isConnectionNotice(item)) {
            run.heard = true;
            this.known.heard(made.messages);
          }
          return withPostedInput(item, made);
        });
      },
    );
  }

  /**
   * A run's transport items through the checks and the reducer, across reconnects, notifying the
   * views (`followRun`); `joining`: a join's stream, whose prelude's snapshot names every group.
   * `prepare` first sees each item as the transport delivered it, and gives what goes on (nothing,
   * for `undefined`): one step per item, where a chain of operators would cost a subscriber each.
   */
  private follow<I>(events: Observable<I>, joining: boolean, prepare: (item: I) => TransportItem | undefined): Observable<Update<S>> {
    this.wire?.stream(joining ? "connect" : "run");
    const windowed = events.pipe(
      mapDefined((transportItem) => {
        const item = prepare(transportItem);
        if (item === undefined || !("type" in item)) return item;
        this.wire?.event(item);
        this.sending.event(item, joining);
        if (item.type !== "MESSAGES_SNAPSHOT" && item.type !== "RUN_STARTED") return item;
        // A MESSAGES_SNAPSHOT keeps older pages already loaded in front of it (HistoryWindow.widen).
        if (item.type === "MESSAGES_SNAPSHOT" && this.rereadingPath) this.leavePath();
        const event = item.type === "MESSAGES_SNAPSHOT" ? this.window.widen(item, this.messages) : item;
        // the groups hear the event before the reducer cuts the path at a fork marker (BranchGroups.hear)
        if (this.groups.hear(event, this.messages, joining)) this.notify("branches");
        return event;
      }),
    );
    return followRun(windowed, this.store, {
      debug: this.options.debug,
      newId: this.newId,
      threadId: this.threadId,
      notify: (update) => {
        if (update.kind === "done") this.wire?.end(update.end);
        this.known.learn(update);
        this.views.notifyUpdate(update);
      },
    });
  }

  /** The input of one run of an exchange (`runInput`: docs/rules.md#A21, docs/rules.md#A5), with the run's options over the session's. */
  private input(runOptions: RunOptions, resume: readonly ResumeEntry[] | undefined, tools: readonly Tool[], serverOwnsHistory: boolean): RunAgentInput {
    const { options } = this;
    return runInput({
      threadId: options.threadId,
      runId: runOptions.runId ?? this.newId(),
      messages: serverOwnsHistory ? this.known.newPart(this.messages.filter((message) => message.role !== "activity")) : this.messages,
      state: this.store.rawState,
      tools,
      context: runOptions.context ?? options.context ?? [],
      forwardedProps: runOptions.forwardedProps ?? options.forwardedProps,
      resume,
    });
  }

  private notify(channel: ViewChannel): void {
    this.views.notify(channel);
  }
}

/** The answer when there is nothing to ask the transport: the whole history goes, as to a server that keeps none. */
const NOTHING_TO_ASK = of(false);

/** How many older messages `loadOlder` reads when neither it nor the session says. */
const DEFAULT_HISTORY_PAGE = 50;

/** Why a run cannot start while another is active on the session (one run at a time); `doing` is what waits. */
function alreadyRunning(doing: string): ClientError {
  return new ClientError("config", `a run is already active on this session; wait for its done update before ${doing}`);
}

/** A transport item as it came: what `follow` does first with a stream that needs nothing more. */
function asDelivered(item: TransportItem): TransportItem {
  return item;
}

function concatFirst<S>(first: readonly Update<S>[], rest: Observable<Update<S>>): Observable<Update<S>> {
  return new Observable<Update<S>>((subscriber) => {
    for (const update of first) subscriber.next(update);
    return rest.subscribe(subscriber);
  });
}
