/**
 * `npm run web`: builds the React task-board page with Vite (a production build) and serves it
 * together with the task-board agent (`POST /agent`) on one origin, then prints the URL. With
 * `--angular` it serves the Angular page instead (installing examples/angular's own packages
 * first if they are missing or stale).
 * Environment: PORT (default 5173), HOST (default 127.0.0.1), TYPING_DELAY_MS (default 40).
 * Stops on Ctrl-C, a SIGTERM (to it or to npm) or npm going away (`stopOnSignals`).
 */
import { buildAngularPage } from "../angular/buildAngularPage";
import { ensureAngularInstalled } from "../angular/installAngular";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { bearerIdentity, bearerThreadAccess } from "../task-board/access";
import { createTaskBoardHandler } from "../task-board/server";
import { buildReactPage } from "./buildPage";
import { startWebServer } from "./webServer";
import { startFailure, stopOnSignals } from "../task-board/stopOnSignals";

const port = Number(process.env.PORT ?? 5173);

async function main(): Promise<void> {
  const angular = process.argv.includes("--angular");
  if (angular) ensureAngularInstalled();
  const root = angular ? await buildAngularPage() : await buildReactPage();
  const web = await startWebServer({
    root,
    // Threads are kept (a reload joins the conversation) and belong to the browser profile's bearer
    // token (its digest is the principal: every tab of the profile shares the thread list).
    agent: createTaskBoardHandler({
      typingDelayMs: Number(process.env.TYPING_DELAY_MS ?? 40),
      store: memoryStore(),
      identify: bearerIdentity,
      authorize: bearerThreadAccess,
    }),
    port,
    host: process.env.HOST ?? "127.0.0.1",
  });
  console.log(`task board (${angular ? "Angular" : "React"}) at ${web.url}`);
  console.log(
    'try: "add buy milk; add call mom", "research rxjs", "done 1", "clear", and "count to 10" (type while it counts: Send queues, Steer, Interrupt & send)',
  );
  stopOnSignals({ close: () => web.close() });
}

main().catch((error: unknown) => {
  process.stderr.write(startFailure(error, port));
  process.exit(1);
});
