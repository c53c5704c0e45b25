import { bootstrapApplication } from "@angular/platform-browser";
import { AppComponent } from "./app/app.component";

// Angular 21 is zoneless by default: signals and the async pipe schedule change detection.
bootstrapApplication(AppComponent).catch((error: unknown) => console.error(error));
