/**
 * The producer's side of one live run on Redis (docs/durability.md, "Redis"): one append script per
 * batch, the compacted thread folded beside it with the store's `ThreadFold` and checkpointed into
 * Redis every so many events and at the run's end, a lease timer that notices the run ended under
 * it, and the stop requests of any instance, heard on the signal channel and read back with every
 * append and renewal; and the steers sent into the run (docs/queue.md#redis-keys), read from the
 * thread's queue when the signal channel says one came, and again when a renewal finds the queue's
 * version moved (a lost signal), so that a steer reaches its run within one heartbeat at worst.
 */
import { Observable } from "rxjs";
import type { QueuedRun } from "../server/store/QueuedRun";
import type { Event } from "../protocol/events";
import { checkBatch } from "../server/store/checkBatch";
import { isTerminal } from "../thread/isTerminal";
import { StoreError } from "../server/store/StoreError";
import type { ThreadFold } from "../thread/ThreadFold";
import type { Cursor, RunWriter, StoredEvent } from "../server/store/ThreadStore";
import { watchStop, type StopWatcher } from "../server/store/watchStop";
import type { ScriptKeys, StoreScript } from "./commands/EVAL";
import { logKeys } from "./keys";
import { encodeEvent } from "./entries";
import { appendArguments, appendScript, parseAppendReply, type AppendReply } from "./scripts/appendBatch";
import { crossesBoundStep, parseQuietAppendReply, quietAppendArguments, quietAppendMs, quietAppendScript } from "./scripts/quietAppend";
import { checkpointArguments, checkpointScript, parseCheckpointReply, type CheckpointResult } from "./scripts/checkpointSnapshot";
import { parseRowReply, setTitleScript } from "./scripts/threadScripts";
import { keptOf, snapshotWrite, type KeptMessages, type SnapshotWrite } from "./snapshotWrites";
import type { ThreadSnapshot } from "../thread/ThreadSnapshot";
import { noticeScript, parseNoticeReply, parseRenewReply, renewArguments, renewScript } from "./scripts/leaseScripts";
import { untilAnswered, type RetryLimits } from "./untilAnswered";
import { scriptAcknowledged } from "./replicaWait";
import type { WriterEnvironment } from "./WriterEnvironment";
import { misplacedBatch, runEnded } from "./writerErrors";
import { decodeQueued, userMessageIds } from "./queuedEntries";
import { parseWaitingReply, waitingScript } from "./scripts/queueScripts";

/** One subscription to `steers`: the queue version its last read saw, how to make it read again, how to end it. */
interface SteerWatcher {
  version: string | undefined;
  readonly poke: () => void;
  readonly complete: () => void;
}

/** A checkpoint to send and the snapshot it keeps (what the next one builds on once it is kept). */
interface Checkpoint {
  readonly write: SnapshotWrite;
  readonly snapshot: ThreadSnapshot;
}

/**
 * A RunWriter on Redis, made by `redisStore().beginRun` once the RUN_STARTED is logged. While an
 * append is pending, a later one waits for it and then goes (a batch re-sent whole after NOSCRIPT
 * must not land after the next; `recordRun` never has two pending anyway: it batches meanwhile);
 * each resolves once Redis logged its batch. An append or renewal whose outcome is unknown (the
 * connection dropped with it in flight, Redis restarting) is sent again (`untilAnswered`) until
 * Redis answers, for as long as the run's lease would last: each batch names its first sequence
 * number, so Redis answers a batch it already logged with the cursors it gave it, and logs nothing
 * twice. Only when the lease is up without an answer (or Redis answers with an error) does the
 * call reject; every later call then rejects with that same error (the run's fold could no longer
 * be trusted), and the run ends ABANDONED in Redis when its lease runs out.
 *
 * @example
 * const writer = await store.beginRun(input);
 * await writer.append([ev.textMessageStart("m1")]);
 */
export class RedisRunWriter implements RunWriter {
  readonly stopRequested: Observable<void>;
  readonly steers: Observable<QueuedRun>;
  private live = true;
  private stopped = false;
  private failure: StoreError | undefined;
  private lastCursor: Cursor;
  private lastSeq: number;
  private sinceCheckpoint = 0;
  private checkpointDue: Checkpoint | undefined;
  /** The kept snapshot the next checkpoint builds on (only the messages from the first changed one are sent). */
  private base: KeptMessages | undefined;
  private deadline: number;
  /** The quiet window after a renewing append (ms; 0: every append renews), and when the current one ends (local time). */
  private readonly quietMs: number;
  private quietUntil = Number.NEGATIVE_INFINITY;
  private cancelTimer: () => void;
  private readonly watchers = new Set<StopWatcher>();
  private readonly steerWatchers = new Set<SteerWatcher>();
  private readonly unwatch: () => void;
  /** The last append called, settled: the next one starts after it. */
  private appending: Promise<unknown> = Promise.resolve();
  /** A call is retried while the run's lease lasts and the writer is neither failed nor released. */
  private readonly retryLimits: RetryLimits = {
    remainingMs: () => this.deadline - this.env.timers.now(),
    wanted: () => this.failure === undefined,
  };

  constructor(
    readonly threadId: string,
    readonly runId: string,
    readonly started: StoredEvent,
    startedSeq: number,
    private readonly fold: ThreadFold,
    private readonly env: WriterEnvironment,
  ) {
    this.lastCursor = started.cursor;
    this.lastSeq = startedSeq;
    this.base = env.base;
    this.deadline = env.timers.now() + env.lease;
    const context = env.context();
    this.quietMs = quietAppendMs(env.lease, context.ttl, context.now === "");
    this.cancelTimer = env.timers.setTimer(env.lease, () => this.onLeaseTimer());
    this.unwatch = env.watchSignals((kind) => {
      if (kind === "stop") this.requestStop();
      else if (kind === "steer") this.pokeSteers(undefined);
      else this.end();
    });
    this.steers = new Observable<QueuedRun>((subscriber) => {
      if (!this.live) {
        subscriber.complete();
        return undefined;
      }
      const sent = new Set<string>();
      let reading = false;
      let again = false;
      const watcher: SteerWatcher = {
        version: undefined,
        poke: () => {
          if (reading) {
            again = true;
            return;
          }
          reading = true;
          this.readSteers(watcher, sent, (steer) => subscriber.next(steer))
            .catch(() => undefined) // Redis did not answer: the next signal or renewal reads again
            .finally(() => {
              reading = false;
              if (again && !subscriber.closed) {
                again = false;
                watcher.poke();
              }
            });
        },
        complete: () => subscriber.complete(),
      };
      this.steerWatchers.add(watcher);
      watcher.poke();
      return () => {
        this.steerWatchers.delete(watcher);
      };
    });
    this.stopRequested = watchStop(
      () => this.stopped,
      () => this.live,
      this.watchers,
    );
  }

  append(events: readonly Event[]): Promise<readonly Cursor[]> {
    const appended = this.appending.then(() => this.appendNow(events));
    this.appending = appended.catch(() => undefined);
    return appended;
  }

  private async appendNow(events: readonly Event[]): Promise<readonly Cursor[]> {
    if (this.failure !== undefined) throw this.failure;
    if (!this.live) throw this.ended(false);
    if (events.length === 0) {
      if (await this.renewLease()) return [];
      throw this.ended(false);
    }
    const refusal = checkBatch(this.threadId, this.runId, events);
    if (refusal !== undefined) throw refusal;
    const encoded = events.map((event, index) => encodeEvent(event, index, this.threadId));
    const terminal = isTerminal(events[events.length - 1]);
    const checkpoint = this.checkpointDue;
    this.checkpointDue = undefined;
    if (checkpoint !== undefined) this.base = undefined; // until Redis says it was kept
    const firstSeq = this.lastSeq + 1;
    const userIds = userMessageIds(events);
    // Within the window of the last renewing append, a plain batch goes quietly: it renews nothing
    // (its lease and the keys' expiries still hold past the window's end) and costs Redis two calls
    // for one event instead of six. One the quiet append does not place goes the full way.
    const quiet =
      this.env.timers.now() < this.quietUntil &&
      !terminal &&
      checkpoint === undefined &&
      userIds.length === 0 &&
      !crossesBoundStep(firstSeq, events.length, this.env.maxEvents);
    // Parsed inside the attempt: a reply of another shape was meant for another command (a client
    // whose replies got out of step), so it says nothing of this batch, which is sent again.
    // With replicas, the reply counts once they hold the batch (replicaWait.ts): only then does it reach anyone.
    const quietly = quiet
      ? await this.guard(
          untilAnswered(
            () =>
              this.scriptAcknowledged(
                quietAppendScript,
                logKeys(this.env.keys),
                quietAppendArguments(
                  firstSeq,
                  encoded.map((event) => event.json),
                ),
              ).then(parseQuietAppendReply),
            this.retryLimits,
          ),
        )
      : undefined;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- a failure recorded while this batch awaited its reply: the check above narrowed it to `never` for TypeScript
    if (this.failure !== undefined) throw this.failure; // an earlier batch's fate is unknown: this one's fold would be wrong
    const renewedAt = this.env.timers.now();
    const reply: AppendReply =
      quietly !== undefined
        ? { kind: "logged", stopRequested: false, firstSeq, cursors: quietly, checkpoint: "none", row: [], taken: [] }
        : await this.guard(
            untilAnswered(() => {
              const args = appendArguments({
                userMessageIds: userIds,
                quietMs: this.quietMs,
                runId: this.runId,
                lease: this.env.lease,
                leaseTtl: this.env.leaseTtl,
                terminal,
                checkpoint: checkpoint?.write,
                maxEvents: this.env.maxEvents,
                firstSeq,
                events: encoded,
              });
              return this.scriptAcknowledged(appendScript, this.env.keys, args).then(parseAppendReply);
            }, this.retryLimits),
          );
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- as above
    if (this.failure !== undefined) throw this.failure;
    if (reply.kind === "ended") {
      // A deleted thread's run was asked to stop: its producer hears so even if the delete's signal is still on its way.
      if (reply.deleted) this.requestStop();
      this.end();
      throw runEnded(this.threadId, this.runId, reply.abandoned, reply.deleted);
    }
    if (reply.kind === "misplaced") throw this.misplaced(firstSeq, events.length, reply.next);
    if (checkpoint !== undefined) this.keptIf(reply.checkpoint, checkpoint);
    for (let i = 0; i < events.length; i++) this.fold.apply(events[i], reply.cursors[i]);
    this.env.feed.offer(events.map((event, i) => ({ cursor: reply.cursors[i], seq: reply.firstSeq + i, event, json: encoded[i].json })));
    this.lastCursor = reply.cursors[reply.cursors.length - 1];
    this.lastSeq = reply.firstSeq + events.length - 1;
    if (reply.stopRequested) this.requestStop();
    if (quietly === undefined) {
      // counted from the sending: Redis renewed no earlier
      this.deadline = renewedAt + this.env.lease;
      this.quietUntil = renewedAt + this.quietMs;
    }
    if (reply.taken.length > 0) await this.env.steersTaken(reply.taken);
    if (terminal) {
      this.end();
      this.env.runEnded();
      // The run's end, compacted: from now on a read needs nothing of the stream. The batch is
      // logged whatever happens here: if this write fails, the next read folds the run and keeps it.
      await this.keepEnd();
      if (reply.row !== undefined && !(Array.isArray(reply.row) && reply.row.length === 0)) await this.env.listChanged("run-ended", reply.row);
    } else {
      this.sinceCheckpoint += events.length;
      if (this.sinceCheckpoint >= this.env.snapshotEvery) {
        this.sinceCheckpoint = 0;
        this.checkpointDue = this.checkpoint(); // sent with the next batch
      }
    }
    return reply.cursors;
  }

  async renewLease(): Promise<boolean> {
    if (this.failure !== undefined) throw this.failure;
    if (!this.live) return false;
    const args = renewArguments(this.runId, this.env.lease, this.env.leaseTtl);
    const reply = await this.guard(untilAnswered(() => this.script(renewScript, args).then(parseRenewReply), this.retryLimits));
    if (!reply.live) {
      if (reply.stopRequested) this.requestStop(); // its thread was deleted
      this.end();
      return false;
    }
    if (reply.stopRequested) this.requestStop();
    this.deadline = this.env.timers.now() + this.env.lease;
    this.pokeSteers(reply.queueVersion);
    return true;
  }

  /**
   * Makes each steer watcher read the queue again: all of them (a steer signal), or those whose
   * last read saw another queue version than `version` (a renewal's: a signal may have been lost).
   */
  private pokeSteers(version: string | undefined): void {
    for (const watcher of [...this.steerWatchers]) if (version === undefined || watcher.version !== version) watcher.poke();
  }

  /** One read of the queue for a steer watcher: the steers into this run it has not had yet, in queue order. */
  private async readSteers(watcher: SteerWatcher, sent: Set<string>, next: (steer: QueuedRun) => void): Promise<void> {
    const waiting = parseWaitingReply(await this.script(waitingScript, []));
    watcher.version = waiting.version;
    if (!this.live) return;
    const steers = waiting.entries.map((json) => decodeQueued(json, this.threadId)).filter((entry) => entry.policy === "steer" && entry.target === this.runId);
    const present = new Set(steers.map((steer) => steer.id));
    // an entry that left the queue never comes back (ids are unique in a thread): forget it, so `sent` stays as small as the queue
    for (const id of [...sent]) if (!present.has(id)) sent.delete(id);
    for (const steer of steers) {
      if (sent.has(steer.id) || !this.steerWatchers.has(watcher)) continue;
      sent.add(steer.id);
      next(steer);
    }
  }

  /** Forgets the run here (the store closes): timers and signals stop, later calls reject. */
  release(failure: StoreError): void {
    this.failure ??= failure;
    this.end();
  }

  async setTitle(title: string): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (!this.live) throw this.ended(false);
    const row = parseRowReply(await this.script(setTitleScript, [this.runId, title]));
    if (row === undefined) {
      this.end();
      throw this.ended(false);
    }
    await this.env.listChanged("renamed", row);
  }

  private checkpoint(): Checkpoint {
    const snapshot = this.fold.snapshot();
    if (snapshot === undefined) throw new StoreError("unavailable", `expected run "${this.runId}" to have a folded thread`, { threadId: this.threadId });
    return { write: snapshotWrite(snapshot, this.lastCursor, this.lastSeq, this.base, this.threadId), snapshot };
  }

  /** The run's end checkpoint: sent whole again if the kept snapshot is not the one this writer built on. */
  private async keepEnd(): Promise<void> {
    try {
      let checkpoint = this.checkpoint();
      let result = parseCheckpointReply(await this.script(checkpointScript, checkpointArguments(checkpoint.write)));
      if (result === "stale") {
        this.base = undefined;
        checkpoint = this.checkpoint();
        result = parseCheckpointReply(await this.script(checkpointScript, checkpointArguments(checkpoint.write)));
      }
      this.keptIf(result, checkpoint);
    } catch {
      // only a saving for later reads: the next read folds the run and keeps it
    }
  }

  /** What the next checkpoint builds on, after Redis answered `result` for `checkpoint`: it, if kept; else all messages go. */
  private keptIf(result: CheckpointResult, checkpoint: Checkpoint): void {
    this.base = result === "kept" ? keptOf(checkpoint.write.seq, checkpoint.snapshot) : undefined;
  }

  /** An append script (full or quiet), acknowledged by the replicas when the store waits for them. */
  private scriptAcknowledged(script: StoreScript, keys: ScriptKeys, args: readonly string[]): Promise<unknown> {
    const { calls, connection, context, replicas } = this.env;
    if (replicas === undefined) return calls.script(connection, script, keys, context(), args, { runId: this.runId });
    return scriptAcknowledged(calls, connection, script, keys, context(), args, replicas, { runId: this.runId });
  }

  private script(script: StoreScript, args: readonly string[]): Promise<unknown> {
    const { calls, connection, keys, context } = this.env;
    return calls.script(connection, script, keys, context(), args, { runId: this.runId });
  }

  /** A call that failed for good leaves the run's state in Redis unknown: remember it, so that every later call fails alike. */
  private async guard<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (StoreError.isInstance(error)) this.failure ??= error;
      this.env.feed.release(); // what was logged is for Redis to say now
      throw error;
    }
  }

  private requestStop(): void {
    if (this.stopped || !this.live) return;
    this.stopped = true;
    for (const watcher of [...this.watchers]) watcher(true);
  }

  /** The run is no longer live here: stop the timer and the signals, complete the stop watchers. */
  private end(): void {
    if (!this.live) return;
    this.live = false;
    this.env.feed.release();
    this.cancelTimer();
    this.unwatch();
    for (const watcher of [...this.watchers]) watcher(false);
    for (const watcher of [...this.steerWatchers]) watcher.complete();
    this.steerWatchers.clear();
    this.env.released();
  }

  private onLeaseTimer(): void {
    if (!this.live) return;
    const remaining = this.deadline - this.env.timers.now();
    if (remaining > 0) {
      this.cancelTimer = this.env.timers.setTimer(remaining, () => this.onLeaseTimer());
      return;
    }
    // Our own lease is due: whoever notices first ends the run (maybe this is the first).
    this.script(noticeScript, [])
      .then((reply) => {
        const notice = parseNoticeReply(reply);
        if (notice.kind === "live" && notice.runId === this.runId) {
          this.deadline = this.env.timers.now() + Math.max(1, notice.remaining);
          this.onLeaseTimer();
        } else this.end();
      })
      .catch(() => {
        // Redis did not answer (or answered nonsense): look again after another lease; the
        // producer's own next append or renewal reports the failure to it.
        this.deadline = this.env.timers.now() + this.env.lease;
        if (this.live) this.cancelTimer = this.env.timers.setTimer(this.env.lease, () => this.onLeaseTimer());
      });
  }

  /** The log is not where this writer's answers put it: the fold can no longer be trusted. */
  private misplaced(firstSeq: number, count: number, next: number): StoreError {
    this.failure ??= misplacedBatch({ threadId: this.threadId, runId: this.runId, firstSeq, count, next });
    this.env.feed.release();
    return this.failure;
  }

  private ended(abandoned: boolean): StoreError {
    return runEnded(this.threadId, this.runId, abandoned);
  }
}
