/** The memory store's deleted threads (docs/threads.md#in-the-store): kept out of reach for a while, so no late write recreates them. */
import type { StoreClock } from "../StoreClock";

/**
 * Keys of threads deleted less than `keepFor` ms ago. Nothing is swept by a timer: each call
 * first forgets the tombstones that have expired, oldest first, which is insertion order since
 * every tombstone lasts the same and the clock never goes back. So at most the threads deleted in
 * the last `keepFor` ms are held, each a key and a number.
 *
 * @example
 * const tombstones = new Tombstones(clock, 2 * lease);
 * tombstones.add("5:alice/t1");
 * tombstones.has("5:alice/t1"); // true, for two leases
 */
export class Tombstones {
  /** Key → the clock time its tombstone expires; insertion order is expiry order. */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly clock: StoreClock,
    private readonly keepFor: number,
  ) {}

  /** How many tombstones are held. */
  get size(): number {
    this.forgetExpired();
    return this.until.size;
  }

  /** Marks `key` deleted from now for `keepFor` ms. */
  add(key: string): void {
    this.forgetExpired();
    this.until.delete(key); // re-inserted at the end: its expiry is now the latest
    this.until.set(key, this.clock.now() + this.keepFor);
  }

  /** Whether `key` was deleted less than `keepFor` ms ago. */
  has(key: string): boolean {
    this.forgetExpired();
    return this.until.has(key);
  }

  private forgetExpired(): void {
    const now = this.clock.now();
    for (const [key, expires] of this.until) {
      if (expires > now) break;
      this.until.delete(key);
    }
  }
}
