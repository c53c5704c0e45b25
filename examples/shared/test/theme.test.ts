import { followTheme, pageTheme, THEME_KEY, toggledTheme, type DarkPreference, type ThemeStorage } from "../theme";

function memory(): ThemeStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

/** A system preference the test flips. */
function system(dark: boolean): DarkPreference & { flip(): void; readonly listeners: number } {
  const listeners = new Set<() => void>();
  const preference = {
    matches: dark,
    addEventListener: (_: "change", listener: () => void) => void listeners.add(listener),
    removeEventListener: (_: "change", listener: () => void) => void listeners.delete(listener),
    flip() {
      preference.matches = !preference.matches;
      for (const listener of listeners) listener();
    },
    get listeners() {
      return listeners.size;
    },
  };
  return preference;
}

/** A root element that records its data-theme. */
function root(): { theme: string | undefined; setAttribute(name: string, value: string): void } {
  const element = {
    theme: undefined as string | undefined,
    setAttribute: (name: string, value: string) => void (name === "data-theme" && (element.theme = value)),
  };
  return element;
}

describe("the page theme", () => {
  it("follows the system until the user picks, and the pick is remembered", () => {
    const storage = memory();
    expect(pageTheme(storage, true)).toBe("dark");
    expect(pageTheme(storage, false)).toBe("light");
    expect(toggledTheme(storage, "dark")).toBe("light");
    expect(storage.items.get(THEME_KEY)).toBe("light");
    expect(pageTheme(storage, true)).toBe("light"); // the pick wins over a dark system, on every later load
  });

  it("ignores a stored value that is not a theme", () => {
    const storage = memory();
    storage.setItem(THEME_KEY, "purple");
    expect(pageTheme(storage, true)).toBe("dark");
  });

  it("shows the theme on the root, follows the system's changes while nothing is picked, and stops on teardown", () => {
    const storage = memory();
    const preference = system(false);
    const element = root();
    const shown: string[] = [];
    const followed = followTheme(element, storage, preference, (theme) => shown.push(theme));
    expect(followed.theme).toBe("light");
    expect(element.theme).toBe("light");
    preference.flip();
    expect(element.theme).toBe("dark");
    expect(shown).toEqual(["dark"]);
    toggledTheme(storage, "dark"); // the user picks light
    preference.flip();
    preference.flip();
    expect(shown).toEqual(["dark"]); // a picked theme no longer follows the system
    followed.stop();
    expect(preference.listeners).toBe(0);
  });
});
