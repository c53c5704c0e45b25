import { bootstrapApplication } from "@angular/platform-browser";
import { pageThread } from "../../shared/pageThread";
import { AppComponent } from "./app/app.component";
import { PAGE_THREAD, provideTaskBoard } from "./app/task-board";

// Angular 21 is zoneless by default: signals and the async pipe schedule change detection.
// The tab keeps its thread across reloads, so a reload joins the conversation; the bearer token
// lives in the profile's local storage, so every tab is one principal with one thread list.
pageThread(sessionStorage, undefined, localStorage)
  .then((thread) => bootstrapApplication(AppComponent, { providers: [{ provide: PAGE_THREAD, useValue: thread }, provideTaskBoard()] }))
  .catch((error: unknown) => console.error(error));
