/** The inspector page's own layout (the inspector component brings its own styles). */

/**
 * The page's CSS: a header, a side column (thread picker, composer) and the inspector filling the
 * rest; light, with contrast enough for WCAG AA.
 *
 * @example
 * document.head.append(Object.assign(document.createElement("style"), { textContent: PAGE_STYLE }));
 */
export const PAGE_STYLE = `
:root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; color: #1a1a1a; background: #fff; }
body { margin: 0; }
.inspect-page { display: grid; grid-template-columns: 18rem 1fr; grid-template-rows: auto 1fr; height: 100vh; }
.inspect-header { grid-column: 1 / -1; display: flex; gap: 1rem; align-items: baseline; padding: 0.5rem 1rem; border-bottom: 1px solid #ccc; }
.inspect-header h1 { font-size: 1rem; margin: 0; white-space: nowrap; }
.inspect-header code { overflow-wrap: anywhere; }
.inspect-side { display: flex; flex-direction: column; gap: 1rem; padding: 0.75rem; border-right: 1px solid #ccc; overflow: auto; }
.inspect-side h2 { font-size: 0.9rem; margin: 0 0 0.25rem; }
.inspect-side form { display: flex; flex-direction: column; gap: 0.4rem; }
.inspect-side ul { list-style: none; margin: 0; padding: 0; }
.inspect-side li { margin-bottom: 0.25rem; }
.inspect-side li button { width: 100%; text-align: start; }
.inspect-side form label { margin-top: 0.25rem; }
.inspect-side button[aria-current="true"] { font-weight: bold; }
.inspect-side textarea { min-height: 4rem; font: inherit; }
.inspect-note { color: #555; margin: 0; }
.inspect-error { color: #b71c1c; margin: 0; overflow-wrap: anywhere; }
.inspect-main { overflow: auto; min-width: 0; }
`;
