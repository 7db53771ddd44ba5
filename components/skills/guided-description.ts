// The guided form's two questions made into one description, in the shape agents choose skills by: what the
// skill does, then "Use when ..." (the doctor's description.no-when finding asks for exactly that).
const sentence = (s: string) => {
  const t = s.trim().replace(/\s+/g, " ");
  if (!t) return "";
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

export function composeDescription(what: string, when: string): string {
  const w = when.trim().replace(/^(use (it |this skill )?)?(when|if|for)\s+/i, "");
  const first = sentence(what);
  const second = w ? sentence(`Use when ${w}`) : "";
  return [first, second].filter(Boolean).join(" ");
}
