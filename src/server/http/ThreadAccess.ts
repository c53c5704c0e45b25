/** Who a request is and what it wants (docs/threads.md#owners): the `identify` and `authorize` hooks of `createHandler` and what they are asked. */
import type { ThreadPatch } from "../../thread/threadList";

/**
 * What a request wants to do with one thread, as `authorize` is asked (docs/threads.md#owners):
 * start a run on it (`run`, with the run's id), read it (`connect`, with the run the client
 * follows if it names one), stop one of its runs (`stop`), cancel one of its waiting messages
 * (`cancel`, with the message's `id`, docs/queue.md#cancel), rename or (un)archive it (`update`,
 * with the patch), delete it (`delete`), read an older page of it (`history`), or show another
 * sibling of one of its messages (`select`, docs/threads.md#the-tree). `principal` is
 * what `identify` returned (absent without `identify`).
 *
 * @example
 * const access: OneThreadAccess = { action: "stop", principal: "user-42", threadId: "t1", runId: "r7" };
 */
export type OneThreadAccess =
  | { readonly action: "run" | "stop"; readonly principal?: string | undefined; readonly threadId: string; readonly runId: string }
  | { readonly action: "cancel"; readonly principal?: string | undefined; readonly threadId: string; readonly id: string }
  | { readonly action: "connect"; readonly principal?: string | undefined; readonly threadId: string; readonly runId?: string | undefined }
  | { readonly action: "update"; readonly principal?: string | undefined; readonly threadId: string; readonly patch: ThreadPatch }
  | { readonly action: "delete" | "history"; readonly principal?: string | undefined; readonly threadId: string }
  | { readonly action: "select"; readonly principal?: string | undefined; readonly threadId: string; readonly messageId: string; readonly index: number };

/**
 * What a request wants to do with a principal's whole thread list, as `authorize` is asked: read
 * a page of it (`list`) or follow its changes (`events`). These routes exist only with `identify`,
 * so `principal` is always there; they name no thread.
 *
 * @example
 * const access: ThreadListAccess = { action: "list", principal: "user-42" };
 */
export interface ThreadListAccess {
  readonly action: "list" | "events";
  readonly principal: string;
}

/**
 * Everything `authorize` is asked about: one thread (`OneThreadAccess`, with a `threadId`) or the
 * principal's list (`ThreadListAccess`, without). Switch on `action`, or test `"threadId" in
 * access`, before reading `threadId`.
 *
 * @example
 * const mine = (access: ThreadAccess) => !("threadId" in access) || access.threadId.startsWith(`${access.principal}.`);
 */
export type ThreadAccess = OneThreadAccess | ThreadListAccess;

/**
 * Allows (`true`) or denies (`false`) a request's access (see `ThreadAccess`). Called on every
 * route that names a thread or the thread list, after `identify` and before the store is
 * consulted, so a denial (403) never depends on whether the thread exists. A throw answers 500.
 *
 * @example
 * const authorize: Authorize = (request, access) => access.action !== "delete" || isAdmin(request);
 */
export type Authorize = (request: Request, access: ThreadAccess) => boolean | Promise<boolean>;

/**
 * Who sends a request (docs/threads.md#owners): the principal (a non-empty string: a user id, a
 * token's subject), or `undefined` when the request carries no valid credentials (401
 * `unauthenticated`). A throw answers 500.
 *
 * @example
 * const identify: Identify = async (request) => (await sessions.verify(request.headers.get("authorization")))?.userId;
 */
export type Identify = (request: Request) => string | undefined | Promise<string | undefined>;
