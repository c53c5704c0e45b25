/**
 * The SHA-1 digest of each store script, by which EVALSHA calls it (docs/durability.md, "Redis"):
 * computed once per script per process with Web Crypto (`crypto.subtle`, in Node 18+ and edge
 * runtimes alike). Until a digest is known (the first calls), or where Web Crypto is missing, the
 * script is sent whole with EVAL, which works the same.
 */
import type { StoreScript } from "./commands/EVAL";

const digests = new WeakMap<StoreScript, string>();
const pending = new WeakSet<StoreScript>();

/**
 * The script's digest as Redis names it (40 lowercase hex digits), or `undefined` while it is
 * being computed (the first call starts it) or cannot be.
 *
 * @example
 * const digest = scriptDigest(appendScript); // undefined at first, then "3f2a…"
 */
export function scriptDigest(script: StoreScript): string | undefined {
  const known = digests.get(script);
  if (known !== undefined || pending.has(script)) return known;
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) return undefined;
  pending.add(script);
  subtle.digest("SHA-1", new TextEncoder().encode(script.source)).then(
    (buffer) => {
      digests.set(script, Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join(""));
    },
    () => undefined, // no digest: the script keeps going out whole
  );
  return undefined;
}
