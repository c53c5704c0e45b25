import { bootstrapApplication } from "@angular/platform-browser";
import { pageThread } from "../../shared/pageThread";
import { AppComponent } from "./app/app.component";
import { PAGE_THREAD, provideTaskBoard } from "./app/task-board";

// Angular 21 is zoneless by default: signals and the async pipe schedule change detection.
// The tab keeps its thread and bearer token across reloads, so a reload joins the conversation.
pageThread(sessionStorage)
  .then((thread) => bootstrapApplication(AppComponent, { providers: [{ provide: PAGE_THREAD, useValue: thread }, provideTaskBoard()] }))
  .catch((error: unknown) => console.error(error));
