// Unsaved edits survive leaving the page (back button, a closed tab, a crash): each dirty file is kept in the
// browser's localStorage with the digest it was edited from, and offered back when the file is opened again.
// Restoring keeps that digest, so if the file changed meanwhile the next save shows the conflict view.
export interface Draft {
  text: string;
  digest: string | null;
  at: number;
}

const PREFIX = "omniforge-draft:";
const MAX_AGE_MS = 14 * 24 * 3600 * 1000;

export const draftKey = (skillKey: string, path: string) => `${PREFIX}${skillKey}:${path}`;

export function readDraft(key: string): Draft | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const d = JSON.parse(raw) as Draft;
    if (typeof d.text !== "string" || Date.now() - d.at > MAX_AGE_MS) {
      localStorage.removeItem(key);
      return null;
    }
    return d;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, d: Omit<Draft, "at">): void {
  try {
    localStorage.setItem(key, JSON.stringify({ ...d, at: Date.now() }));
  } catch {
    // storage full or disabled: the beforeunload warning still protects the edit
  }
}

export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // ignore
  }
}

/** Drops every draft of one skill (it was deleted). */
export function clearSkillDrafts(skillKey: string): void {
  try {
    const prefix = `${PREFIX}${skillKey}:`;
    for (const k of Object.keys(localStorage)) if (k.startsWith(prefix)) localStorage.removeItem(k);
  } catch {
    // ignore
  }
}
