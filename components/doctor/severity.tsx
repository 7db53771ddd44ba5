// A doctor finding as every screen shows it: its severity badge, check code, place and message (the report, a
// deploy's preview, an approval's review).

export const SEVERITY_STYLE: Record<string, string> = {
  high: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
  medium: "bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200",
  low: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
};

export function Severity({ s }: { s: string }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${SEVERITY_STYLE[s] ?? ""}`}>{s}</span>;
}

export function FindingLine({ f }: { f: { severity: string; code: string; file: string; line: number; message: string } }) {
  return (
    <>
      <Severity s={f.severity} /> <code>{f.code}</code> {f.file}:{f.line}: {f.message}
    </>
  );
}
