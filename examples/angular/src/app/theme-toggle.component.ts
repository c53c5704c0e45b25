/** The top bar's dark-mode switch (examples/shared/theme.ts): the system's theme until pressed, then the user's, remembered. */
import { ChangeDetectionStrategy, Component, DestroyRef, inject, signal } from "@angular/core";
import { applyTheme, followTheme, systemDarkPreference, toggledTheme } from "../../../shared/theme";

/**
 * A toggle button ("Dark mode", pressed while dark), as the React page's ThemeToggle: shows the
 * page's theme at once, follows the system until pressed, and keeps the pick in `localStorage`.
 *
 * @example
 * <header class="topbar">…<app-theme-toggle /></header>
 */
@Component({
  selector: "app-theme-toggle",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    <button type="button" class="theme-toggle" data-testid="theme-toggle" [attr.aria-pressed]="theme() === 'dark'" (click)="toggle()">
      <span aria-hidden="true">{{ theme() === "dark" ? "☾" : "☀" }}</span> Dark mode
    </button>
  `,
})
export class ThemeToggleComponent {
  private readonly followed = followTheme(document.documentElement, localStorage, systemDarkPreference(), (theme) => this.theme.set(theme));
  protected readonly theme = signal(this.followed.theme);

  constructor() {
    inject(DestroyRef).onDestroy(() => this.followed.stop());
  }

  protected toggle(): void {
    const next = toggledTheme(localStorage, this.theme());
    applyTheme(document.documentElement, next);
    this.theme.set(next);
  }
}
