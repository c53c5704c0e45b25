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
 * edited storage) is replaced. The token is kept in `tokenStorage` (the tab's `storage` by
 * default; the React page passes `localStorage`, so every tab of a browser profile is one
 * principal with one thread list, while each tab keeps its own current thread).
 *
 * @example
 * const { threadId, token } = await pageThread(sessionStorage);
 * new HttpTransport("/agent", { headers: { Authorization: `Bearer ${token}` } });
 */
export async function pageThread(
  storage: ThreadStorage,
  newId: () => string = () => globalThis.crypto.randomUUID(),
  tokenStorage: ThreadStorage = storage,
): Promise<PageThread> {
  let token = tokenStorage.getItem(TOKEN_KEY);
  if (token === null || token === "") {
    token = newId();
    tokenStorage.setItem(TOKEN_KEY, token);
  }
  const owned = await threadIdFor(token, "");
  let threadId = storage.getItem(THREAD_KEY);
  if (threadId === null || !threadId.startsWith(owned) || threadId === owned) {
    threadId = await threadIdFor(token, `board-${newId()}`);
    storage.setItem(THREAD_KEY, threadId);
  }
  return { threadId, token };
}

/**
 * Starts a new chat in this tab: a new thread id that `token` owns, remembered for the next load.
 *
 * @example
 * setThreadId(await newPageThread(sessionStorage, token));
 */
export async function newPageThread(storage: ThreadStorage, token: string, newId: () => string = () => globalThis.crypto.randomUUID()): Promise<string> {
  return showPageThread(storage, await threadIdFor(token, `board-${newId()}`));
}

/**
 * Shows `threadId` in this tab from now on (a thread picked in the sidebar), remembered for the next load.
 *
 * @example
 * setThreadId(showPageThread(sessionStorage, row.threadId));
 */
export function showPageThread(storage: ThreadStorage, threadId: string): string {
  storage.setItem(THREAD_KEY, threadId);
  return threadId;
}
