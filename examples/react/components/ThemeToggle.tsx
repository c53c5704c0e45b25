/** The top bar's dark-mode switch (examples/shared/theme.ts): the system's theme until pressed, then the user's, remembered. */
import { useLayoutEffect, useState } from "react";
import { applyTheme, followTheme, pageTheme, systemDarkPreference, toggledTheme, type Theme } from "../../shared/theme";

/**
 * A toggle button ("Dark mode", pressed while dark). Shows the page's theme before the first
 * paint and follows the system's preference until the user presses it; the pick is kept in
 * `localStorage` for every later load.
 *
 * @example
 * <header className="topbar">…<ThemeToggle /></header>
 */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => pageTheme(localStorage, systemDarkPreference().matches));
  useLayoutEffect(() => {
    const followed = followTheme(document.documentElement, localStorage, systemDarkPreference(), setTheme);
    return () => followed.stop();
  }, []);
  const toggle = () => {
    const next = toggledTheme(localStorage, theme);
    applyTheme(document.documentElement, next);
    setTheme(next);
  };
  return (
    <button type="button" className="theme-toggle" data-testid="theme-toggle" aria-pressed={theme === "dark"} onClick={toggle}>
      <span aria-hidden="true">{theme === "dark" ? "☾" : "☀"}</span> Dark mode
    </button>
  );
}
