/**
 * Which thread a page talks on, and the bearer token it talks with (docs/durability.md#stores-and-routes): both kept in the
 * tab's session storage, so a reload comes back to the same thread (and `connect()` joins it),
 * while another tab starts its own. The thread belongs to the token (examples/task-board/access.ts).
 */
import { threadIdFor } from "./threadOwner";

/** A page's thread and the token that owns it. */
export interface PageThread {
  readonly threadId: string;
  readonly token: string;
}

/** What `pageThread` needs of `sessionStorage`. */
export type ThreadStorage = Pick<Storage, "getItem" | "setItem">;

const TOKEN_KEY = "task-board:token";
const THREAD_KEY = "task-board:thread";

/**
 * The tab's token and thread: the stored ones, or new ones (a random token; a thread id that the
 * token owns), stored for the next load. A stored thread that the stored token does not own (an
 * edited storage) is replaced.
 *
 * @example
 * const { threadId, token } = await pageThread(sessionStorage);
 * new HttpTransport("/agent", { headers: { Authorization: `Bearer ${token}` } });
 */
export async function pageThread(storage: ThreadStorage, newId: () => string = () => globalThis.crypto.randomUUID()): Promise<PageThread> {
  let token = storage.getItem(TOKEN_KEY);
  if (token === null || token === "") {
    token = newId();
    storage.setItem(TOKEN_KEY, token);
  }
  const owned = await threadIdFor(token, "");
  let threadId = storage.getItem(THREAD_KEY);
  if (threadId === null || !threadId.startsWith(owned) || threadId === owned) {
    threadId = await threadIdFor(token, `board-${newId()}`);
    storage.setItem(THREAD_KEY, threadId);
  }
  return { threadId, token };
}
