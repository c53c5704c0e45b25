/** The inspector page's composer: a message sent as a run on the page's Session, and the run's status. */
import { createElement as h, useState, type ReactElement } from "react";
import type { Session } from "../../client/Session";
import { useRun } from "../../react/useRun";

/** Props of {@link Composer}. */
export interface ComposerProps {
  readonly session: Session;
}

/**
 * A text box and Send (a run with the text as the user message, `useRun(session).send`), Stop
 * while a run is live, and the run's status and last error: what the inspector shows is the
 * stream this sends.
 *
 * @example
 * h(Composer, { session });
 */
export function Composer({ session }: ComposerProps): ReactElement {
  const { status, error, send, stop } = useRun(session);
  const [text, setText] = useState("");
  const running = status === "running";
  return h(
    "section",
    { "aria-labelledby": "inspect-composer" },
    h("h2", { id: "inspect-composer" }, "Send a run"),
    h(
      "form",
      {
        onSubmit: (event: { preventDefault(): void }) => {
          event.preventDefault();
          if (text.trim() === "" || running) return;
          send(text.trim());
          setText("");
        },
      },
      h("label", { htmlFor: "inspect-message" }, `Message to thread ${session.threadId}`),
      h("textarea", { id: "inspect-message", value: text, onChange: (event: { target: { value: string } }) => setText(event.target.value) }),
      running ? h("button", { type: "button", onClick: stop }, "Stop") : h("button", { type: "submit", disabled: text.trim() === "" }, "Send"),
    ),
    h("p", { className: "inspect-note", "data-testid": "inspect-run-status", role: "status" }, `Run: ${status}`),
    error === undefined ? null : h("p", { className: "inspect-error" }, `${error.kind}${error.code === undefined ? "" : ` ${error.code}`}: ${error.message}`),
  );
}
