// The import button's words, from the dry run's report: they agree with the sentence above it. A skill that cannot
// load was offered as "Import with warnings" (disabled) under "It cannot be loaded: fix the errors before importing."

export function importButtonLabel(report: { loadable: boolean; valid: boolean; exists: boolean }): string {
  if (!report.loadable || report.exists) return "Cannot import";
  return report.valid ? "Import" : "Import with warnings";
}
