// What of a skill is searched: its name (split into words, with the folder name when it differs), the
// description, the body's headings, the tags and the body text. Bodies are read from disk here (plain files
// only, size-capped), without the full parse activation does: the index needs the words, not diagnostics.
import fs from "node:fs";
import path from "node:path";
import type { SkillEntry } from "../registry/types";
import { bodyText, headings, nameWords } from "./text";

/** The searched fields, in the order explanations mention them. */
export const FIELDS = ["name", "description", "headings", "tags", "body"] as const;
export type SearchField = (typeof FIELDS)[number];

export interface SearchDoc {
  /** The entry id (absolute skill folder). */
  id: string;
  name: string;
  description: string;
  /** The name and folder name as words. */
  nameText: string;
  headings: string;
  tags: string;
  body: string;
}

/** Body characters indexed per skill: the opening of a long body carries its topic; the rest mostly examples. */
export const MAX_BODY_CHARS = 3_000;
const MAX_READ_BYTES = 1024 * 1024;

/** SKILL.md without its frontmatter, or "" when it is not a plain readable file. */
export function readBody(file: string): string {
  let raw: string;
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_READ_BYTES) return "";
    raw = fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
  if (raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1);
  if (raw.startsWith("---")) {
    const end = raw.search(/\r?\n---[ \t]*(\r?\n|$)/);
    if (end > 0) raw = raw.slice(raw.indexOf("\n", end + 1) + 1 || raw.length);
  }
  return raw.replace(/\r\n/g, "\n");
}

export function docFor(entry: Pick<SkillEntry, "id" | "name" | "description" | "tags" | "dir">, body: string): SearchDoc {
  const folder = path.basename(entry.dir);
  const name = nameWords(entry.name);
  const folderWords = nameWords(folder);
  const heads = headings(body);
  return {
    id: entry.id,
    name: entry.name,
    description: entry.description,
    nameText: folderWords && folderWords !== name && !name.includes(folderWords) ? `${name} ${folderWords}` : name,
    headings: heads.join("\n"),
    tags: entry.tags.join(" "),
    body: bodyText(body.length > MAX_BODY_CHARS ? body.slice(0, MAX_BODY_CHARS) : body),
  };
}
