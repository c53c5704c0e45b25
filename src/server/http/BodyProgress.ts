/**
 * A response body's progress told by the body itself (docs/observability.md#traces): the bytes it
 * hands its reader and its end. The request span follows it to count the bytes a response sent;
 * a body that reports its own progress spares the span a second stream wrapped around it (one more
 * pull, read and promise per chunk, on the path every event takes).
 */

/** What follows a body: the size of each chunk handed to its reader, and its end (read to the end, cancelled, or failed). */
export interface BodyFollower {
  readonly bytes: (count: number) => void;
  readonly end: () => void;
}

/**
 * The progress of one body. Followers may come before or after it began; one that comes after the
 * end hears of the end at once. Each follower hears of the end once.
 *
 * @example
 * const progress = new BodyProgress();
 * reportsProgress(body, progress); // the body's source then calls progress.sent(n) and progress.ended()
 * bodyProgressOf(body)?.follow({ bytes: (n) => (size += n), end: () => span.end() });
 */
export class BodyProgress {
  private followers: BodyFollower[] | undefined;
  private over = false;

  /** Hears of the body's chunks from now on, and of its end (at once, when it already ended). */
  follow(follower: BodyFollower): void {
    if (this.over) follower.end();
    else (this.followers ??= []).push(follower);
  }

  /** The body handed `count` bytes to its reader. */
  sent(count: number): void {
    const followers = this.followers;
    if (followers !== undefined) for (const follower of followers) follower.bytes(count);
  }

  /** The body ended; later calls do nothing. */
  ended(): void {
    if (this.over) return;
    this.over = true;
    const followers = this.followers;
    this.followers = undefined;
    if (followers !== undefined) for (const follower of followers) follower.end();
  }
}

/** The progress of the bodies that report their own, by body (a `Response` made around a body keeps the same stream object). */
const progressByBody = new WeakMap<ReadableStream<Uint8Array>, BodyProgress>();

/**
 * Marks `body` as one whose source reports `progress` (its chunks as its reader takes them, and its end).
 *
 * @example
 * reportsProgress(body, pump.progress);
 */
export function reportsProgress(body: ReadableStream<Uint8Array>, progress: BodyProgress): void {
  progressByBody.set(body, progress);
}

/**
 * The progress `body` reports, or `undefined` for a body that does not (the caller then follows it
 * by reading through it).
 *
 * @example
 * const progress = bodyProgressOf(response.body);
 */
export function bodyProgressOf(body: ReadableStream<Uint8Array>): BodyProgress | undefined {
  return progressByBody.get(body);
}
