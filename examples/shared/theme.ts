/**
 * The pages' colour theme (examples/shared/chat.css): the system's (`prefers-color-scheme`) until
 * the user picks one with the top bar's toggle; the pick is remembered in the profile's local
 * storage. The theme is written as `data-theme` on `<html>`, the one switch the stylesheet reads.
 */

/** The two themes chat.css defines. */
export type Theme = "light" | "dark";

/** What the theme needs of `localStorage`. */
export type ThemeStorage = Pick<Storage, "getItem" | "setItem">;

/** What the theme needs of `matchMedia("(prefers-color-scheme: dark)")`. */
export interface DarkPreference {
  readonly matches: boolean;
  addEventListener(type: "change", listener: () => void): void;
  removeEventListener(type: "change", listener: () => void): void;
}

/** Where the user's pick is kept. */
export const THEME_KEY = "agui-rx-examples:theme";

/**
 * The theme to show: the stored pick, else the system's preference. A stored value that is not a
 * theme (an edited storage) counts as no pick.
 *
 * @example
 * pageTheme(localStorage, matchMedia("(prefers-color-scheme: dark)").matches); // "dark" on a dark system
 */
export function pageTheme(storage: ThemeStorage, prefersDark: boolean): Theme {
  return storedTheme(storage) ?? (prefersDark ? "dark" : "light");
}

/**
 * The other theme, remembered as the user's pick.
 *
 * @example
 * applyTheme(document.documentElement, toggledTheme(localStorage, "light")); // "dark", and kept
 */
export function toggledTheme(storage: ThemeStorage, current: Theme): Theme {
  const next: Theme = current === "dark" ? "light" : "dark";
  storage.setItem(THEME_KEY, next);
  return next;
}

/**
 * Shows `theme`: sets `data-theme` on the root element.
 *
 * @example
 * applyTheme(document.documentElement, "dark");
 */
export function applyTheme(root: { setAttribute(name: string, value: string): void }, theme: Theme): void {
  root.setAttribute("data-theme", theme);
}

/**
 * Shows the page's theme now and follows the system's preference while the user has not picked
 * one; calls `onChange` with each theme shown after the first. Returns the theme shown and the
 * teardown.
 *
 * @example
 * const { theme, stop } = followTheme(document.documentElement, localStorage, matchMedia("(prefers-color-scheme: dark)"), setTheme);
 */
export function followTheme(
  root: { setAttribute(name: string, value: string): void },
  storage: ThemeStorage,
  system: DarkPreference,
  onChange: (theme: Theme) => void = () => undefined,
): { readonly theme: Theme; stop(): void } {
  const theme = pageTheme(storage, system.matches);
  applyTheme(root, theme);
  const listener = () => {
    if (storedTheme(storage) !== undefined) return; // the user's pick wins over the system
    const next = pageTheme(storage, system.matches);
    applyTheme(root, next);
    onChange(next);
  };
  system.addEventListener("change", listener);
  return { theme, stop: () => system.removeEventListener("change", listener) };
}

/** The browser's own preference query, or one that never matches where there is none. */
export function systemDarkPreference(): DarkPreference {
  if (typeof matchMedia === "function") return matchMedia("(prefers-color-scheme: dark)");
  return { matches: false, addEventListener: () => undefined, removeEventListener: () => undefined };
}

function storedTheme(storage: ThemeStorage): Theme | undefined {
  const stored = storage.getItem(THEME_KEY);
  return stored === "light" || stored === "dark" ? stored : undefined;
}
