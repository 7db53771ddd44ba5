// Small helpers to build Diagnostic values; every check in this folder goes through them so ranges stay 1-based.
import type { Diagnostic, Severity } from "./types";

export interface Range {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** File-level problems point at 1:1. */
export const FILE_RANGE: Range = Object.freeze({ line: 1, column: 1, endLine: 1, endColumn: 1 });

export function diag(severity: Severity, code: string, message: string, range: Range = FILE_RANGE): Diagnostic {
  return { severity, code, message, line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn };
}

export const hasErrors = (diagnostics: readonly Diagnostic[]) => diagnostics.some((d) => d.severity === "error");
