/**
 * The encoded frames queued to a process's tails (docs/http.md, "Readers that never read"): each
 * event is encoded once however many tails queue it, and the bytes queued are counted once, so
 * that a per-process budget (`maxTailBytes`) can refuse new tails before memory runs out.
 */
import type { Event } from "../../protocol/events";
import { frameText } from "./encodeFrame";
import { TextFrame } from "./TextFrame";

/**
 * One encoded SSE frame (`id:` and `data:` lines, UTF-8). Its bytes may be queued to many
 * responses at once and are read-only: nothing may write into them.
 *
 * @example
 * const frame: Frame = tailFrames().take(ev.runStarted("t1", "r1"), "c1");
 */
export interface Frame {
  readonly bytes: Uint8Array;
}

/**
 * Frames shared by the responses that queue them. `take` hands out the frame of an event (the
 * same object, encoded once, to every taker while any still holds it); `release` gives one
 * holder's share back. `queuedBytes` counts every frame held once, however many hold it.
 *
 * @example
 * const frames = tailFrames();
 * const frame = frames.take(stored.event, stored.cursor);
 * queue.push(frame); // … later, once the frame was read or dropped:
 * frames.release(frame);
 */
export interface TailFrames {
  /**
   * The frame of `event` with `cursor` as its `id:`, held once more; `json`, the event's JSON text
   * when the store handed it on (`StoredEvent.json`), spares its serialization. Throws what
   * `encodeFrame` throws (nothing is held then).
   */
  take(event: Event, cursor: string | undefined, json?: string): Frame;
  /** One holder of `frame` is done with it; a frame no longer held is forgotten. A frame this pool did not hand out is ignored. */
  release(frame: Frame): void;
  /** The bytes of the frames held now, each frame counted once. */
  readonly queuedBytes: number;
  /** How many distinct frames are held now. */
  readonly frames: number;
}

/** The default budget of `maxTailBytes`: 256 MiB of frames queued to the process's tails. */
export const DEFAULT_MAX_TAIL_BYTES = 256 * 1024 * 1024;

/** A frame of one pool, with its holders; the key it is found under is its event (and cursor). Its bytes are encoded once, when first read. */
class PooledFrame extends TextFrame {
  holders = 0;
  constructor(
    readonly owner: object,
    readonly event: Event,
    readonly cursor: string | undefined,
    json: string | undefined,
  ) {
    super(frameText(event, cursor, json));
  }
}

/**
 * Makes a pool of shared frames. Frames are found by their event object: a store hands the same
 * `Event` to every tail of a thread (the memory store its logged object, Redis the entry it
 * decoded once per read and fans out), so N tails queue one encoded frame. A frame is kept only
 * while held (not beside every logged event), so the pool costs nothing once the tails have read.
 *
 * @example
 * const frames = tailFrames();
 * createHandler(agent, { store, tailFrames: frames });
 * frames.queuedBytes; // what the handler's tails have queued, each frame once
 */
export function tailFrames(): TailFrames {
  const owner = {};
  const byEvent = new Map<Event, PooledFrame>();
  let queuedBytes = 0;
  let held = 0;

  return {
    get queuedBytes() {
      return queuedBytes;
    },
    get frames() {
      return held;
    },
    take(event, cursor, json) {
      let frame = byEvent.get(event);
      if (frame === undefined || frame.cursor !== cursor) {
        // A second cursor for the same event object is not a store's doing; such a frame is counted on its own.
        const fresh = new PooledFrame(owner, event, cursor, json);
        if (frame === undefined) byEvent.set(event, fresh);
        frame = fresh;
      }
      if (frame.holders++ === 0) {
        queuedBytes += frame.size;
        held++;
      }
      return frame;
    },
    release(frame) {
      if (!(frame instanceof PooledFrame) || frame.owner !== owner || frame.holders === 0) return;
      if (--frame.holders > 0) return;
      queuedBytes -= frame.size;
      held--;
      if (byEvent.get(frame.event) === frame) byEvent.delete(frame.event);
    },
  };
}

/**
 * The pool every `createHandler` uses unless given another: one per process (module instance),
 * because memory is one per process; `maxTailBytes` is checked against it.
 *
 * @example
 * sharedTailFrames.queuedBytes; // bytes queued to this process's tails now
 */
export const sharedTailFrames: TailFrames = tailFrames();
