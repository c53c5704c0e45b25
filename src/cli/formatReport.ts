/** `agui-rx check`'s text output: one line per finding, then a summary. */
import type { CheckReport, Finding } from "./Finding";

/**
 * The report as text: a header naming the endpoint, one line per finding (`#index stage rule
 * message`, `-` for findings about the whole response), and a summary with the counts, the number
 * of frames and how the run ended.
 *
 * @example
 * process.stdout.write(formatReport(report));
 * // ✗ #3 verify R15 [TEXT_MESSAGE_CONTENT] TEXT_MESSAGE_CONTENT for m9, which was never started
 * // 1 finding (1 error, 0 warnings) in 5 frames; the run finished (success)
 */
export function formatReport(report: CheckReport): string {
  const lines = [`agui-rx check ${report.url}`];
  for (const finding of report.findings) lines.push(formatFinding(finding));
  const errors = report.findings.filter((finding) => finding.severity === "error").length;
  const warnings = report.findings.length - errors;
  const count =
    report.findings.length === 0
      ? "no findings"
      : `${report.findings.length} finding${report.findings.length === 1 ? "" : "s"} (${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"})`;
  lines.push(`${report.findings.length === 0 ? "✓" : "✗"} ${count} in ${report.frames} frame${report.frames === 1 ? "" : "s"}; ${describeEnd(report)}`);
  return `${lines.join("\n")}\n`;
}

/** One finding on one line. */
export function formatFinding(finding: Finding): string {
  const mark = finding.severity === "error" ? "✗" : "!";
  const where = finding.index === undefined ? "-" : `#${finding.index}`;
  const type = finding.eventType === undefined ? "" : ` [${finding.eventType}]`;
  return `${mark} ${where} ${finding.stage} ${finding.rule}${type} ${finding.message}`;
}

function describeEnd(report: CheckReport): string {
  const { end } = report;
  switch (end.kind) {
    case "finished":
      return `the run finished (${end.outcome})`;
    case "error":
      return `the run ended with RUN_ERROR${end.code === undefined ? "" : ` ${end.code}`}: ${end.message}`;
    case "none":
      return "the run did not end";
    default: {
      const never: never = end;
      return String(never);
    }
  }
}
