// How many skills a catalog holds, said one way wherever it is shown (the skills page, the overview): a skill
// is a name; the same name in several layers is one skill with several definitions.
import { count } from "~/server/domain/plural";

/** "(8 definitions across the layers)" when some name is defined in more than one layer, else "". */
export function definitionsNote(names: number, definitions: number): string {
  return names === definitions ? "" : `(${count(definitions, "definition")} across the layers)`;
}

/** "6 skills (8 definitions across the layers)", or "6 skills". */
export function catalogSize(names: number, definitions: number): string {
  const note = definitionsNote(names, definitions);
  return note ? `${count(names, "skill")} ${note}` : count(names, "skill");
}
