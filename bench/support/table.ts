/** Prints rows as an aligned plain-text table (first row is the header). */
export function printTable(title: string, rows: readonly (readonly string[])[]): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  const line = (row: readonly string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ");
  console.log(`\n${title}`);
  console.log(line(rows[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** A number with a fixed count of significant decimals, for table cells. */
export function fmt(value: number, digits = 2): string {
  if (value >= 1000) return Math.round(value).toLocaleString("en-US");
  return value.toFixed(digits);
}

/**
 * A ratio for a table cell with a `×`: two decimals, or two significant digits below 0.1 (so that
 * a client at 1/300 of the floor does not print as 0.00×).
 *
 * @example
 * fmtRatio(0.0031); // "0.0031×"
 */
export function fmtRatio(value: number): string {
  return `${value >= 0.1 ? fmt(value) : value.toPrecision(2)}×`;
}
