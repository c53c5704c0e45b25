/**
 * How a thread id names its owner in the task-board example (docs/durability.md#stores-and-routes, `authorize`): it starts
 * with a digest of the owner's bearer token. Shared by the pages (which make their thread ids)
 * and the server's access check (examples/task-board/access.ts); web APIs only.
 */

/**
 * The owner part of a thread id for `token`: the first 16 hex digits of its SHA-256. The token
 * itself never appears in an id (ids are shown on the page and logged).
 *
 * @example
 * await ownerOf("3f2a…"); // "9c1e4d2b7a05f3e8"
 */
export async function ownerOf(token: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)]
    .slice(0, 8)
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
}

/**
 * A thread id that belongs to `token`: `<owner>.<name>`.
 *
 * @example
 * const threadId = await threadIdFor(token, `board-${crypto.randomUUID()}`);
 */
export async function threadIdFor(token: string, name: string): Promise<string> {
  return `${await ownerOf(token)}.${name}`;
}
