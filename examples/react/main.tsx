/**
 * Mounts the React task-board page (App.tsx) on the page's own origin: the agent is `POST /agent`.
 * The tab keeps its thread and bearer token across reloads (pageThread), so a reload joins the
 * conversation where it stands.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { pageThread } from "../shared/pageThread";
import "../shared/chat.css";
import { App } from "./App";

const root = document.getElementById("root");
if (!root) throw new Error("expected a #root element in index.html");
const mount = root;
void pageThread(sessionStorage).then(({ threadId, token }) => {
  const transport = new HttpTransport(new URL("/agent", location.href).href, { headers: { Authorization: `Bearer ${token}` } });
  createRoot(mount).render(
    <StrictMode>
      <App transport={transport} threadId={threadId} />
    </StrictMode>,
  );
});
