/** The inspector panel's inline styles: plain CSS values, no stylesheet to load (docs/observability.md#inspector). */

type Style = Readonly<Record<string, string | number>>;

/**
 * The styles of `AgentInspector`'s parts, by part. Colours keep a contrast of at least 4.5:1 on
 * white (the e2e accessibility checks), and a finding is marked by its text too, not by colour alone.
 *
 * @example
 * h("pre", { style: STYLES.pre }, text);
 */
export const STYLES: Readonly<Record<string, Style>> = {
  root: { fontFamily: "system-ui, sans-serif", fontSize: "13px", color: "#1a1a1a", background: "#ffffff", border: "1px solid #c8c8c8", padding: "8px" },
  title: { fontSize: "16px", margin: "0 0 4px" },
  heading: { fontSize: "14px", margin: "8px 0 4px" },
  summary: { margin: "0 0 6px" },
  controls: { display: "flex", gap: "12px", alignItems: "center", flexWrap: "wrap", marginBottom: "6px" },
  panes: { display: "grid", gridTemplateColumns: "minmax(0, 2fr) minmax(0, 3fr) minmax(0, 2fr)", gap: "8px" },
  pane: { minWidth: 0, maxHeight: "70vh", overflow: "auto", borderTop: "1px solid #c8c8c8" },
  list: { listStyle: "none", margin: 0, padding: 0 },
  nested: { listStyle: "none", margin: 0, paddingLeft: "14px" },
  event: {
    font: "inherit",
    textAlign: "left",
    width: "100%",
    background: "transparent",
    border: "1px solid transparent",
    padding: "1px 4px",
    cursor: "pointer",
    color: "#1a1a1a",
  },
  selected: { border: "1px solid #1d4ed8", background: "#e8efff" },
  flagged: { background: "#fdecea", borderLeft: "3px solid #b3261e" },
  finding: { color: "#8c1d18", padding: "1px 4px" },
  meta: { color: "#505050" },
  text: { whiteSpace: "pre-wrap" },
  facts: { display: "grid", gridTemplateColumns: "max-content 1fr", gap: "2px 8px", margin: 0 },
  term: { fontWeight: 600 },
  value: { margin: 0, overflowWrap: "anywhere" },
  pre: { background: "#f5f5f5", padding: "6px", overflow: "auto", maxHeight: "240px", margin: 0, whiteSpace: "pre-wrap", overflowWrap: "anywhere" },
};
