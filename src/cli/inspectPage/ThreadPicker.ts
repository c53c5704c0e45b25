/** The inspector page's thread picker: the server's thread list when it has one, and a thread id typed in. */
import { createElement as h, useState, type ReactElement } from "react";
import type { ThreadList } from "../../client/threads/threadList";
import { useThreads } from "../../react/useThreads";

/** Props of {@link ThreadPicker}. */
export interface ThreadPickerProps {
  /** The server's thread list (`threadList(new HttpThreadsTransport(…))`). */
  readonly list: ThreadList;
  /** The thread joined now, marked in the list. */
  readonly current: string | undefined;
  /** Joins a thread. */
  readonly onJoin: (threadId: string) => void;
}

/**
 * The threads the server lists, newest first, live (a row appears when a thread starts elsewhere),
 * each a button that joins it; and a form to join a thread by id, for a server whose list is
 * refused (a handler with `identify` and no credentials, or one without the route): then the
 * list's error is shown and the form still works.
 *
 * @example
 * h(ThreadPicker, { list, current: session?.threadId, onJoin: join });
 */
export function ThreadPicker({ list, current, onJoin }: ThreadPickerProps): ReactElement {
  const { threads, error, loading } = useThreads(list);
  const [typed, setTyped] = useState("");
  return h(
    "section",
    { "aria-labelledby": "inspect-threads" },
    h("h2", { id: "inspect-threads" }, "Threads"),
    error === undefined
      ? threads.length === 0
        ? h("p", { className: "inspect-note" }, loading ? "Reading the thread list…" : "No threads yet.")
        : h(
            "ul",
            { "data-testid": "inspect-thread-list" },
            threads.map((thread) =>
              h(
                "li",
                { key: thread.threadId },
                h(
                  "button",
                  { type: "button", "aria-current": thread.threadId === current, onClick: () => onJoin(thread.threadId) },
                  `${thread.title || thread.threadId}${thread.running ? " (running)" : ""}`,
                ),
              ),
            ),
          )
      : h("p", { className: "inspect-note" }, `No thread list: ${error.message}`),
    h(
      "form",
      {
        onSubmit: (event: { preventDefault(): void }) => {
          event.preventDefault();
          if (typed.trim() !== "") onJoin(typed.trim());
        },
      },
      h("label", { htmlFor: "inspect-thread-id" }, "Thread id"),
      h("input", { id: "inspect-thread-id", value: typed, onChange: (event: { target: { value: string } }) => setTyped(event.target.value) }),
      h("button", { type: "submit" }, "Join"),
    ),
  );
}
