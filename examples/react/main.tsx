/**
 * Mounts the React task-board page (App.tsx) on the page's own origin: the agent is `POST /agent`.
 * The tab keeps its thread across reloads and the profile its bearer token (pageThread), so a
 * reload joins the conversation where it stands and every tab shares the thread sidebar.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HttpThreadsTransport } from "../../src/client/threads/HttpThreadsTransport";
import { pageThread } from "../shared/pageThread";
import "../shared/chat.css";
import "../shared/markdown.css";
import { Shell } from "./Shell";

const root = document.getElementById("root");
if (!root) throw new Error("expected a #root element in index.html");
const mount = root;
// The token lives in the profile's local storage (every tab is one principal, with one thread
// list); the thread shown, in the tab's session storage.
void pageThread(sessionStorage, undefined, localStorage).then(({ threadId, token }) => {
  const transport = new HttpThreadsTransport(new URL("/agent", location.href).href, { headers: { Authorization: `Bearer ${token}` } });
  createRoot(mount).render(
    <StrictMode>
      <Shell transport={transport} token={token} threadId={threadId} />
    </StrictMode>,
  );
});
