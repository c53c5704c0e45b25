/**
 * The React page with its thread sidebar (docs/client.md#thread-list): the list of the profile's
 * threads beside the task board of the one shown. Switching threads or starting a new chat mounts
 * a fresh App (a Session per thread, joined on mount); the tab remembers its thread across reloads.
 */
import { useState } from "react";
import type { HttpThreadsTransport } from "../../src/client/threads/HttpThreadsTransport";
import { threadList } from "../../src/client/threads/threadList";
import { newPageThread, showPageThread } from "../shared/pageThread";
import { App } from "./App";
import { ThreadSidebar } from "./components/ThreadSidebar";

/** The page's inputs: the transport (with the tab's bearer token), the token, and the thread to show first. */
export interface ShellProps {
  readonly transport: HttpThreadsTransport;
  readonly token: string;
  readonly threadId: string;
}

/**
 * The sidebar and the board of the current thread.
 *
 * @example
 * createRoot(root).render(<Shell transport={transport} token={token} threadId={threadId} />);
 */
export function Shell({ transport, token, threadId: first }: ShellProps) {
  const [list] = useState(() => threadList(transport));
  const [threadId, setThreadId] = useState(first);
  const open = (next: string) => setThreadId(showPageThread(sessionStorage, next));
  const newChat = () => void newPageThread(sessionStorage, token).then(setThreadId);
  return (
    <div className="with-threads">
      <ThreadSidebar list={list} current={threadId} onOpen={open} onNew={newChat} />
      <App key={threadId} transport={transport} threadId={threadId} />
    </div>
  );
}
