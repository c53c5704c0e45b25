/** The encoded frames waiting for one response's reader, taken in bounded chunks (docs/http.md, "Backpressure"). */
import type { Frame, TailFrames } from "./TailFrames";
import { frameSize, TextFrame } from "./TextFrame";
import { encodeChunk } from "./encodeChunk";

/** The most bytes one read takes from the queue (one frame more if a single frame is larger): 64 KiB. */
export const MAX_CHUNK_BYTES = 64 * 1024;

/**
 * A response's queue of frames and their total size in bytes. Frames from a `TailFrames` pool are
 * released to it as they leave the queue (taken or dropped); others are the queue's own.
 *
 * @example
 * const queue = new FrameQueue(sharedTailFrames);
 * queue.push(sharedTailFrames.take(stored.event, stored.cursor));
 * controller.enqueue(queue.takeChunk());
 */
export class FrameQueue {
  private frames: Frame[] = [];
  private size = 0;

  constructor(private readonly pool: TailFrames | undefined) {}

  /** Frames queued. */
  get length(): number {
    return this.frames.length;
  }

  /** Bytes queued. */
  get bytes(): number {
    return this.size;
  }

  push(frame: Frame): void {
    this.frames.push(frame);
    this.size += frameSize(frame);
  }

  /**
   * Takes the first frames, up to `MAX_CHUNK_BYTES` in all (at least one frame), as one chunk.
   * Bounded chunks keep what the writer holds small while the queue is long, and let a large
   * queue's memory go back frame by frame instead of after one huge write. A chunk of one frame is
   * that frame's own bytes, shared with every response that queued it (read-only: Node's socket
   * writes it as it is, and a default `ReadableStream` neither copies nor transfers a chunk);
   * several frames make one new chunk, so a socket write carries many small frames. Frames held as
   * text (`TextFrame`, every frame the server makes) are joined and encoded once into a chunk cut
   * from a shared slab (`encodeChunk`): no buffer per event nor per read (issue #27); others are copied.
   */
  takeChunk(): Uint8Array {
    const taken = this.take();
    if (taken.length === 1) return taken[0].bytes;
    let text = "";
    let size = 0;
    for (const frame of taken) {
      if (!(frame instanceof TextFrame)) return copied(taken);
      text += frame.text;
      size += frame.size;
    }
    return encodeChunk(text, size);
  }

  /**
   * Takes the first frames, up to `MAX_CHUNK_BYTES` in all (at least one), each as its own shared
   * bytes: nothing is copied, for a writer that gathers many chunks into one socket write itself.
   */
  takeFrames(): Uint8Array[] {
    return this.take().map((frame) => frame.bytes);
  }

  /** Drops every queued frame (the reader went away). */
  clear(): void {
    const dropped = this.frames;
    this.frames = [];
    this.size = 0;
    if (this.pool !== undefined) for (const frame of dropped) this.pool.release(frame);
  }

  /** The first frames, up to `MAX_CHUNK_BYTES` in all (at least one frame), released to the pool as they leave. */
  private take(): Frame[] {
    const frames = this.frames;
    let count = 0;
    let size = 0;
    while (count < frames.length) {
      const next = frameSize(frames[count]);
      if (count > 0 && size + next > MAX_CHUNK_BYTES) break;
      size += next;
      count++;
    }
    const taken = count === frames.length ? frames : frames.splice(0, count);
    if (taken === frames) this.frames = [];
    this.size -= size;
    if (this.pool !== undefined) for (const frame of taken) this.pool.release(frame);
    return taken;
  }
}

/** The bytes of `frames` copied one after another into one new chunk. */
function copied(frames: readonly Frame[]): Uint8Array {
  let size = 0;
  for (const frame of frames) size += frame.bytes.byteLength;
  const chunk = new Uint8Array(size);
  let at = 0;
  for (const frame of frames) {
    chunk.set(frame.bytes, at);
    at += frame.bytes.byteLength;
  }
  return chunk;
}
