/**
 * The thread sidebar (docs/client.md#thread-list): the browser profile's threads, live across its
 * tabs, with New chat, switching, rename, delete and a marker on the threads whose run is live.
 */
import type { ThreadList } from "../../../src/client/threads/threadList";
import { useThreads } from "../../../src/react";

/** What the sidebar shows and tells. */
export interface ThreadSidebarProps {
  readonly list: ThreadList;
  /** The thread the page shows now. */
  readonly current: string;
  readonly onOpen: (threadId: string) => void;
  readonly onNew: () => void;
}

/**
 * The list, most recently updated first; a thread shows once its first run has started.
 *
 * @example
 * <ThreadSidebar list={list} current={threadId} onOpen={setThreadId} onNew={newChat} />
 */
export function ThreadSidebar({ list, current, onOpen, onNew }: ThreadSidebarProps) {
  const { threads, rename, remove, error } = useThreads(list);
  return (
    <aside className="threads" aria-label="Threads">
      <button type="button" className="new-chat" data-testid="new-chat" onClick={onNew}>
        + New chat
      </button>
      {error !== undefined && <p className="threads-error">{error.message}</p>}
      <ul>
        {threads.map((thread) => {
          const title = thread.title === "" ? "New chat" : thread.title;
          return (
            <li key={thread.threadId} className="thread-row" data-testid="thread-row" data-thread={thread.threadId} aria-current={thread.threadId === current}>
              <button type="button" className="thread-open" title={thread.lastMessage?.preview} onClick={() => onOpen(thread.threadId)}>
                {thread.running && <span className="running-dot" data-testid="thread-running" title="a run is live" />}
                {title}
              </button>
              <button
                type="button"
                className="thread-action"
                aria-label={`Rename ${title}`}
                onClick={() => {
                  const renamed = window.prompt("Rename the chat", thread.title);
                  if (renamed !== null && renamed.trim() !== "") void rename(thread.threadId, renamed.trim());
                }}
              >
                ✎
              </button>
              <button
                type="button"
                className="thread-action"
                aria-label={`Delete ${title}`}
                onClick={() => void remove(thread.threadId).then(() => thread.threadId === current && onNew())}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
