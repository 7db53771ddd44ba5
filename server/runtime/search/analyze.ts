// A skill's document as the search reads it: its stems per field, the summary's stems, and the
// term counts the fielded index keeps. The same for every search that holds the skill, so a skill read once is
// analysed once: a console keeps one search per recent user (up to 32) over the same shared layers, and each
// analysed every skill again (a save reached them all: 110-256 ms of the server's thread at 32 users).
import { FIELDS, type SearchDoc, type SearchField } from "./document";
import { type FieldCounts, fieldCounts } from "./fielded";
import { terms } from "./text";

/** The summary fields: where a word says what a skill is for (confidence, IDF). */
export const STRONG: SearchField[] = ["name", "description", "headings", "tags"];
const DOC_FIELD: Record<SearchField, keyof SearchDoc> = { name: "nameText", description: "description", headings: "headings", tags: "tags", body: "body" };

/** Read-only once made: searches share it. */
export interface AnalyzedDoc {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Stems of the skill name. */
  readonly nameTerms: readonly string[];
  /** Distinct stems of the summary fields (name, description, headings, tags). */
  readonly strong: ReadonlySet<string>;
  /** Distinct stems of the name field (name and folder name). */
  readonly nameField: readonly string[];
  readonly counts: FieldCounts;
}

export function analyzeDoc(doc: SearchDoc): AnalyzedDoc {
  // Summary fields a line at a time (a name, a heading: no term spans two), the body whole.
  const fields = FIELDS.map((f) => (f === "body" ? terms(String(doc.body)) : String(doc[DOC_FIELD[f]]).split("\n").flatMap((line) => terms(line))));
  return {
    id: doc.id,
    name: doc.name,
    description: doc.description,
    nameTerms: terms(doc.name.replace(/[-_.]+/g, " ")),
    strong: new Set(STRONG.flatMap((f) => fields[FIELDS.indexOf(f)]!)),
    nameField: [...new Set(fields[0])],
    counts: fieldCounts(fields, FIELDS.length),
  };
}
