// The frontmatter's plain values as the form shows them: text fields as strings, lists as words, metadata as rows.
// Lists are read by the runtime's own readers (allowed-tools and the tag and scope lists), so the form never shows
// a value the agent would read differently.
import { parseAllowedTools } from "~/server/runtime/skill/allowed-tools";
import { stringList } from "~/server/runtime/skill/properties";

type Data = Record<string, unknown>;

export const text = (v: unknown) => (typeof v === "string" ? v : "");
export const words = (v: unknown): string[] => stringList(v) ?? [];
const mapping = (v: unknown): Data => (v && typeof v === "object" && !Array.isArray(v) ? (v as Data) : {});

export function formValues(data: Data) {
  const scope = mapping(data.scope);
  const hooks = mapping(data.hooks);
  return {
    name: text(data.name),
    description: text(data.description),
    license: text(data.license),
    compatibility: text(data.compatibility),
    allowedTools: data["allowed-tools"] === undefined ? [] : parseAllowedTools(data["allowed-tools"]),
    context: text(data.context),
    agents: words(scope.agents),
    environments: words(scope.environments),
    tenants: words(scope.tenants),
    tags: words(data.tags),
    priority: text(data.priority),
    metadata: Object.entries(mapping(data.metadata)).map(([k, v]) => [k, text(v)] as const),
    pre: text(hooks.pre),
    post: text(hooks.post),
    execution: data.execution === undefined ? null : executionOf(mapping(data.execution)),
  };
}

/** Seed 000's execution block as written (booleans and strings alike), for the form's read-only line. */
function executionOf(e: Data): { key: string; value: string }[] {
  return Object.entries(e).map(([key, v]) => ({ key, value: Array.isArray(v) ? v.map(String).join(", ") : String(v) }));
}

/** The fields the form edits; any other key is kept as written and named under the form. */
export const FORM_KEYS = new Set(["name", "description", "license", "compatibility", "allowed-tools", "context", "scope", "tags", "priority", "metadata", "hooks", "execution"]);
