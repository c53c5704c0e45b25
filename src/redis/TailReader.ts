/**
 * Every live tail of one store instance through one connection (docs/durability.md, "Redis": tails
 * multiplex): one blocking XREAD across the streams of every followed thread (plus the reader's own
 * wake-up stream, written to when another thread must be followed), entries fanned out in process
 * to the tails of their thread. A tail that starts behind the reader reads the gap with XRANGE and
 * holds back live entries until it has caught up, so every tail gets each event once and in order.
 * Sequence numbers (`n`) make trimming visible: a gap errors the thread's tails with `evicted`.
 *
 * A run produced on this instance feeds its thread's tails here directly (`own`): its writer
 * offers each logged batch, already decoded, and the thread leaves the XREAD while it does, so the
 * common case (a client reading the run from the instance that runs it) costs no read-back. When
 * the run ends, fails, or its lease check finds it over, the thread goes back to the XREAD from
 * where the feed left it, which picks up what others logged (an ABANDONED, say).
 *
 * Over a Redis Cluster (docs/durability.md#redis-cluster) one XREAD cannot span the slots of the
 * followed threads: each thread is followed through its sharded channel instead (its scripts
 * announce every append there), read by XRANGE from where the reader is when an announcement
 * arrives, and polled every `blockMs` in case one was lost while its slot moved; the fan-out is the same.
 */
import { Observable } from "rxjs";
import { isTerminal } from "../thread/isTerminal";
import type { StoreError } from "../server/store/StoreError";
import type { Cursor, StoredEvent } from "../server/store/ThreadStore";
import { wakeArguments } from "./commands/XADD";
import { pexpireArguments } from "./commands/PEXPIRE";
import { xrangeArguments, xrangeAtArguments } from "./commands/XRANGE";
import { parseXReadReply, xreadArguments } from "./commands/XREAD";
import { decodeEntries, type LoggedEntry } from "./entries";
import type { ThreadKeys } from "./keys";
import type { OwnedConnection, RedisConnection } from "./RedisPort";
import { confirmReplicated } from "./replicaWait";
import { replyArray, replyString } from "./replies";
import { isStreamId } from "./streamIds";
import { asStoreError, closedError, evicted, type FollowedStream, type Follower, type LocalFeed, type Owner, type ReaderEnvironment } from "./tailState";

export type { LocalFeed, ReaderEnvironment } from "./tailState";

/**
 * The multiplexed reader of one store instance (`ThreadStore.tail`).
 *
 * @example
 * const reader = new TailReader(environment);
 * reader.tail("t1", cursor, threadKeys("agui:", "t1")).subscribe(({ event }) => console.log(event.type));
 */
export class TailReader {
  private readonly streams = new Map<string, FollowedStream>();
  /** Threads fed by a writer of this instance (by stream key): left out of the XREAD. */
  private readonly owners = new Map<string, Owner>();
  private connection: Promise<OwnedConnection> | undefined;
  private reading = false;
  /** The streams the pending XREAD reads, by key: a reply counts only for the same stream object. */
  private inFlight: Map<string, FollowedStream> | undefined;
  private wakeSent = false;
  private wakeAfter = "0-0";
  private closed = false;
  /** Over a cluster: cancels the pending poll. */
  private polling: (() => void) | undefined;

  constructor(private readonly env: ReaderEnvironment) {}

  /** How many threads the reader follows and how many tails it serves. */
  get following(): { readonly threads: number; readonly tails: number } {
    let tails = 0;
    for (const stream of this.streams.values()) tails += stream.followers.size;
    return { threads: this.streams.size, tails };
  }

  /**
   * A writer of this instance starts run `runId` on `threadId` (whose keys are `keys`; the id names it in messages and lease checks; its RUN_STARTED logged as
   * `started`): from now on its appends feed the thread's tails here, until `release()`. A thread
   * already followed from further back than `started` is not fed (its XREAD has a gap to read first).
   */
  own(threadId: string, runId: string, started: LoggedEntry, keys: ThreadKeys): LocalFeed {
    const key = keys.events;
    const stream = this.streams.get(key);
    if (this.closed || this.owners.has(key) || (stream !== undefined && stream.position.seq + 1 < started.seq))
      return { offer: () => undefined, release: () => undefined };
    const owner: Owner = { runId, last: started };
    this.owners.set(key, owner);
    if (stream !== undefined) this.advanceEntries(stream, [started]);
    return {
      offer: (entries) => {
        if (this.owners.get(key) !== owner || entries.length === 0) return;
        owner.last = entries[entries.length - 1];
        const followed = this.streams.get(key);
        if (followed !== undefined) this.advanceEntries(followed, entries);
      },
      release: () => this.disown(key, owner),
    };
  }

  /** `ThreadStore.tail` of the thread whose keys are `keys`: the events after `after` through the next terminal, each once and in order. */
  tail(threadId: string, after: Cursor, keys: ThreadKeys): Observable<StoredEvent> {
    return new Observable<StoredEvent>((subscriber) => {
      const follower: Follower = {
        seen: -1,
        catchingUp: true,
        held: [],
        done: false,
        deliver: (entry) => {
          if (follower.done || entry.seq <= follower.seen) return;
          follower.seen = entry.seq;
          subscriber.next({ cursor: entry.cursor, event: entry.event, json: entry.json });
          if (isTerminal(entry.event) && !follower.done) {
            follower.done = true;
            this.leave(keys.events, follower);
            subscriber.complete();
          }
        },
        fail: (error) => {
          if (follower.done) return;
          follower.done = true;
          this.leave(keys.events, follower);
          subscriber.error(error);
        },
      };
      if (this.closed) follower.fail(closedError(threadId));
      else if (!isStreamId(after)) follower.fail(evicted(threadId, `cursor "${after}" is not in its log (evicted, or not this thread's)`));
      else this.join(threadId, keys, after, follower).catch((error: unknown) => follower.fail(asStoreError(error, threadId)));
      return () => {
        follower.done = true;
        this.leave(keys.events, follower);
      };
    });
  }

  /** Errors every tail with `unavailable` and closes the reader's connection. */
  async close(): Promise<void> {
    this.closed = true;
    this.polling?.();
    this.polling = undefined;
    for (const stream of [...this.streams.values()]) this.drop(stream, closedError(stream.threadId));
    const connection = this.connection;
    this.connection = undefined;
    if (connection !== undefined)
      await connection.then(
        (open) => open.close(),
        () => undefined,
      ); // never opened: nothing to close
  }

  private async join(threadId: string, keys: ThreadKeys, after: Cursor, follower: Follower): Promise<void> {
    // Asked of Redis even when the reader has it in memory: a cursor the stream no longer has is evicted.
    const at = await this.entryAt(threadId, keys, after);
    if (follower.done) return;
    if (at === undefined) throw evicted(threadId, `cursor "${after}" is not in its log (evicted, or not this thread's)`);
    follower.seen = at.seq;
    let existing = this.streams.get(keys.events);
    if (existing === undefined) {
      // A thread this instance feeds starts where its writer is: the tail catches up from its cursor below.
      const owner = this.owners.get(keys.events);
      const start = owner !== undefined && owner.last.seq > at.seq ? owner.last : at;
      const pull = this.env.shards === undefined ? undefined : { listener: (): void => undefined, reading: false, again: false, failures: 0 };
      existing = { threadId, keys, position: start, recent: [start], followers: new Set(), cancelCheck: () => undefined, pull };
      this.streams.set(keys.events, existing);
      this.checkLease(existing);
      if (pull !== undefined) this.listen(existing);
      else if (owner === undefined) this.wakeUp();
    }
    existing.followers.add(follower);
    follower.catchingUp = false;
    if (existing.position.seq <= at.seq) return;
    if (existing.recent[0].seq <= at.seq + 1) {
      // The gap is in memory: sent now, in order (deliver skips what the cursor already covers).
      for (const entry of existing.recent) follower.deliver(entry);
      return;
    }
    follower.catchingUp = true;
    // Behind the reader: read the gap up to where the reader is now; what it reads meanwhile waits.
    const target = existing.position;
    let last = at;
    while (last.seq < target.seq && !follower.done) {
      const reply = await this.env.calls.command(this.env.port, xrangeArguments(keys.events, last.cursor, target.cursor, this.env.page), "XRANGE", {
        threadId,
      });
      const page = decodeEntries(reply, threadId);
      if (page.length > 0) await this.confirmed(this.env.port, keys, threadId);
      if (follower.done) return;
      for (const entry of page) {
        if (entry.seq !== last.seq + 1) throw evicted(threadId, `events after cursor "${last.cursor}" were trimmed while they were read`);
        last = entry;
        follower.deliver(entry);
      }
      if (page.length === 0) throw evicted(threadId, `events after cursor "${last.cursor}" were trimmed while they were read`);
    }
    follower.catchingUp = false;
    for (const entry of follower.held.splice(0)) follower.deliver(entry);
  }

  private async entryAt(threadId: string, keys: ThreadKeys, cursor: Cursor): Promise<LoggedEntry | undefined> {
    const reply = await this.env.calls.command(this.env.port, xrangeAtArguments(keys.events, cursor), "XRANGE", { threadId });
    return decodeEntries(reply, threadId)[0];
  }

  private leave(key: string, follower: Follower): void {
    const stream = this.streams.get(key);
    if (stream === undefined || !stream.followers.delete(follower) || stream.followers.size > 0) return;
    this.streams.delete(key); // the pending XREAD may still name it; its reply is then ignored
    this.forget(stream);
  }

  private drop(stream: FollowedStream, error: StoreError): void {
    if (this.streams.get(stream.keys.events) === stream) this.streams.delete(stream.keys.events);
    this.forget(stream);
    for (const follower of [...stream.followers]) follower.fail(error);
    stream.followers.clear();
  }

  /** The writer no longer feeds `key`: if it is followed, the XREAD reads it again from where the feed left it. */
  private disown(key: string, owner: Owner): void {
    if (this.owners.get(key) !== owner) return;
    this.owners.delete(key);
    const stream = this.streams.get(key);
    if (stream === undefined || this.closed) return;
    if (stream.pull !== undefined) this.pull(stream);
    else this.wakeUp();
  }

  /** A followed thread is no longer followed: its lease check stops, and over a cluster its channel is left. */
  private forget(stream: FollowedStream): void {
    stream.cancelCheck();
    if (stream.pull !== undefined) this.env.shards?.unlisten(stream.keys.events, stream.pull.listener).catch(() => undefined); // gone with the connection anyway
  }

  /**
   * Over a cluster: listens to the thread's channel with a new listener (the port routes the
   * subscription to the slot's primary as it knows it now), then reads what was announced before
   * the subscription landed; takes a previous listener off (wherever it was left: that node may
   * answer MOVED); polls while anything is followed. A subscription that fails counts as a failed
   * read (the poll tries again).
   */
  private listen(stream: FollowedStream): void {
    const pull = stream.pull;
    const shards = this.env.shards;
    if (pull === undefined || shards === undefined) return;
    const old = pull.listener;
    const listener = (): void => this.pull(stream);
    pull.listener = listener;
    shards.listen(stream.keys.events, listener).then(
      () => {
        if (this.streams.get(stream.keys.events) !== stream) shards.unlisten(stream.keys.events, listener).catch(() => undefined);
        else this.pull(stream);
      },
      (error: unknown) => this.failedRead(stream, error),
    );
    shards.unlisten(stream.keys.events, old).catch(() => undefined);
    this.schedulePoll();
  }

  /**
   * Over a cluster: reads the stream after the reader's position now, or once more after the read
   * under way. `polled`: the poll asks, not an announcement; if it finds entries, their announcements
   * were lost (the slot moved, or its primary failed over, and the subscription stayed behind), so
   * the thread's channel is subscribed again, where its slot is now.
   */
  private pull(stream: FollowedStream, polled = false): void {
    const pull = stream.pull;
    if (pull === undefined || this.closed || this.streams.get(stream.keys.events) !== stream || this.owners.has(stream.keys.events)) return;
    if (pull.reading) {
      pull.again = true;
      return;
    }
    pull.reading = true;
    void this.readNew(stream, pull, polled).finally(() => (pull.reading = false));
  }

  private async readNew(stream: FollowedStream, pull: NonNullable<FollowedStream["pull"]>, polled: boolean): Promise<void> {
    const { calls, port, page } = this.env;
    try {
      do {
        pull.again = false;
        const reply = await calls.command(port, xrangeArguments(stream.keys.events, stream.position.cursor, "+", page), "XRANGE", {
          threadId: stream.threadId,
        });
        if (this.streams.get(stream.keys.events) !== stream) return;
        const entries = decodeEntries(reply, stream.threadId);
        if (entries.length > 0) await this.confirmed(port, stream.keys, stream.threadId);
        if (this.streams.get(stream.keys.events) !== stream) return;
        if (polled && entries.length > 0) this.listen(stream); // announcements were lost: subscribe again where the slot is now
        polled = false;
        this.advanceEntries(stream, entries);
        if (entries.length >= page) pull.again = true; // a full page: there is more
      } while (pull.again && this.streams.get(stream.keys.events) === stream && !this.owners.has(stream.keys.events));
      pull.failures = 0;
    } catch (error) {
      this.failedRead(stream, error);
    }
  }

  /** A read that failed once is tried again by the next announcement or poll; twice in a row, its tails end with the cause. */
  private failedRead(stream: FollowedStream, error: unknown): void {
    const pull = stream.pull;
    if (pull === undefined || this.streams.get(stream.keys.events) !== stream) return;
    pull.failures += 1;
    if (pull.failures >= 2) this.drop(stream, asStoreError(error, stream.threadId));
  }

  /** Over a cluster: every `blockMs` while anything is followed, each followed thread not fed here is read again. */
  private schedulePoll(): void {
    if (this.polling !== undefined || this.closed) return;
    this.polling = this.env.timers.setTimer(this.env.blockMs, () => {
      this.polling = undefined;
      if (this.streams.size === 0 || this.closed) return;
      for (const stream of [...this.streams.values()]) this.pull(stream, true);
      this.schedulePoll();
    });
  }

  /** Makes sure the read loop runs and reads every followed stream. */
  private wakeUp(): void {
    if (!this.reading) {
      this.reading = true;
      void this.loop();
      return;
    }
    if (this.inFlight === undefined || this.wakeSent) return; // the next XREAD is not sent yet, or already woken
    this.wakeSent = true;
    const { calls, port, wakeKey } = this.env;
    // Read in the same XREAD as the threads, so it cannot be missed whichever reaches Redis first.
    Promise.all([calls.command(port, wakeArguments(wakeKey), "XADD"), calls.command(port, pexpireArguments(wakeKey, 86_400_000), "PEXPIRE")]).catch(() => {
      // Redis is failing: the pending XREAD fails alike and errors every tail with the cause.
    });
  }

  private async loop(): Promise<void> {
    try {
      this.connection ??= this.env.calls.open((signal) => this.env.port.connect(this.env.connectionName, signal), "a connection for the tail reader");
      const connection = await this.connection.catch((error: unknown) => {
        this.connection = undefined; // try again with the next tail
        throw error;
      });
      while (this.streams.size > 0 && !this.closed) {
        const issued = new Map<string, FollowedStream>();
        const positions = [{ key: this.env.wakeKey, after: this.wakeAfter }];
        for (const [key, stream] of this.streams) {
          if (this.owners.has(key)) continue; // fed by its writer here
          issued.set(key, stream);
          positions.push({ key, after: stream.position.cursor });
        }
        if (issued.size === 0) break; // every followed thread is fed here: nothing to read until one is released
        this.inFlight = issued;
        this.wakeSent = false;
        const reply = await this.env.calls.command(connection, xreadArguments(positions, this.env.page, this.env.blockMs), "XREAD", {}, this.env.blockMs);
        this.inFlight = undefined;
        const read = parseXReadReply(reply);
        // one confirmation covers every stream the XREAD read: they share this connection's place in the replication
        const first = read.map(({ key }) => issued.get(key)).find((stream) => stream !== undefined);
        if (first !== undefined) await this.confirmed(connection, first.keys, undefined);
        for (const { key, entries } of read) {
          if (key === this.env.wakeKey) this.wakeAfter = lastId(entries);
          else {
            const stream = this.streams.get(key);
            if (stream !== undefined && stream === issued.get(key)) this.advance(stream, entries);
          }
        }
      }
    } catch (error) {
      const failure = asStoreError(error, undefined);
      for (const stream of [...this.streams.values()]) this.drop(stream, failure);
    } finally {
      this.inFlight = undefined;
      this.reading = false;
    }
  }

  /** With `replicas`: resolves once the replicas hold what `connection` read (`confirmReplicated`); at once without. */
  private async confirmed(connection: RedisConnection, keys: { readonly sync: string }, threadId: string | undefined): Promise<void> {
    const { replicas, calls } = this.env;
    if (replicas !== undefined) await confirmReplicated(calls, connection, keys, replicas, threadId === undefined ? {} : { threadId });
  }

  /** Fans `entries` (raw, as read) out to the stream's tails, in order; a gap drops the stream. */
  private advance(stream: FollowedStream, raw: unknown): void {
    let entries: LoggedEntry[];
    try {
      entries = decodeEntries(raw, stream.threadId);
    } catch (error) {
      this.drop(stream, asStoreError(error, stream.threadId));
      return;
    }
    this.advanceEntries(stream, entries);
  }

  /** Fans decoded `entries` out to the stream's tails, in order, skipping what it has; a gap drops the stream. */
  private advanceEntries(stream: FollowedStream, entries: readonly LoggedEntry[]): void {
    for (const entry of entries) {
      if (entry.seq <= stream.position.seq) continue; // read before (a stream followed again from further back)
      if (entry.seq !== stream.position.seq + 1) {
        this.drop(stream, evicted(stream.threadId, `events after cursor "${stream.position.cursor}" were trimmed while it was followed`));
        return;
      }
      stream.position = entry;
      stream.recent.push(entry);
      for (const follower of [...stream.followers]) {
        if (follower.catchingUp) follower.held.push(entry);
        else follower.deliver(entry);
      }
    }
    if (stream.recent.length > 2 * this.env.page) stream.recent = stream.recent.slice(-this.env.page);
  }

  /**
   * Watches the thread's lease, so that a run whose producer died still ends for its tails here:
   * the notice script ends it ABANDONED when due (its RUN_ERROR then arrives like any event);
   * otherwise look again when the lease would run out, or after a lease while no run is live.
   */
  private checkLease(stream: FollowedStream): void {
    if (this.streams.get(stream.keys.events) !== stream) return;
    this.env.notice(stream.threadId, stream.keys).then(
      (notice) => {
        if (this.streams.get(stream.keys.events) !== stream) return;
        const owner = this.owners.get(stream.keys.events);
        // Its run ended without its writer (ABANDONED): what was logged is read from Redis again.
        if (owner !== undefined && (notice.kind !== "live" || notice.runId !== owner.runId)) this.disown(stream.keys.events, owner);
        if (notice.kind === "unknown") this.drop(stream, evicted(stream.threadId, "its keys expired while it was followed"));
        else this.scheduleCheck(stream, notice.kind === "live" ? Math.max(1, notice.remaining) : this.env.lease);
      },
      () => this.scheduleCheck(stream, this.env.lease), // Redis is failing: the XREAD reports it to the tails
    );
  }

  private scheduleCheck(stream: FollowedStream, ms: number): void {
    stream.cancelCheck();
    stream.cancelCheck = this.env.timers.setTimer(ms, () => this.checkLease(stream));
  }
}

function lastId(raw: unknown): string {
  const entries = replyArray(raw, "the wake-up stream's entries");
  return replyString(replyArray(entries[entries.length - 1], "a wake-up entry")[0], "a wake-up entry's id");
}
