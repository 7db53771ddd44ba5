// The optional structured fields: metadata (every rule set), and the OmniForge extensions (model, agent,
// context, priority, tags, hooks, scope), checked only under --rules omniforge.
import type { Diagnostic, RuleSet } from "./types";
import { diag, type Range } from "./diagnostics";
import type { ParsedSkill } from "./parse";
import type { FieldPos } from "./fast-yaml";
import { suggestField } from "./fields";
import { resolveInsideSkill } from "./paths";
import { NUMBER, SCOPE_KEYS, typeName, type FieldsUnderCheck, type FrontmatterContext } from "./field-values";

export function checkMetadata(value: unknown, pos: FieldPos | undefined, parsed: ParsedSkill, out: Diagnostic[], rules: RuleSet) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.push(diag("error", "metadata.type", `metadata must be a mapping of key: value strings, not ${typeName(value)}.`, parsed.rangeOf(pos?.value ?? pos?.key)));
    return;
  }
  const itemRange = (key: string) => {
    const child = pos?.children?.get(key);
    return parsed.rangeOf(child?.value ?? child?.key ?? pos?.value);
  };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v !== "string") {
      // Real collections (openclaw "requires", contributor lists) nest values here; omniforge keeps the skill
      // valid and simply leaves such keys out of properties.metadata.
      out.push(
        diag(
          rules === "spec" ? "error" : "warning",
          "metadata.value-type",
          `metadata.${key} must be a plain string, not ${typeName(v)}: flatten it (e.g. ${key}-name: ...) or quote it.` +
            (rules === "spec" ? "" : " It is left out of the loaded metadata."),
          itemRange(key),
        ),
      );
    }
  }
}

export function checkExtensions(
  f: FieldsUnderCheck,
  fields: Map<string, FieldPos>,
  parsed: ParsedSkill,
) {
  const { raw, has, ctx, out, valueRange } = f;
  for (const key of ["model", "agent"] as const) {
    if (has(key) && (typeof raw[key] !== "string" || (raw[key] as string).trim() === "")) {
      out.push(diag("error", `${key}.type`, `${key} must be a non-empty string.`, valueRange(key)));
    }
  }
  if (has("context") && raw.context !== "inherit" && raw.context !== "fork") {
    out.push(diag("error", "context.value", `context must be "inherit" or "fork", not ${JSON.stringify(raw.context)}.`, valueRange("context")));
  }
  // Seed 000: `agent` names the sub-agent a fork runs as; without `context: fork` there is no sub-agent to run.
  if (has("agent") && typeof raw.agent === "string" && raw.agent.trim() && raw.context !== "fork") {
    out.push(
      diag("warning", "agent.without-fork", `agent: ${raw.agent.trim()} has no effect without context: fork (the sub-agent it names only runs for a fork): add context: fork, or remove agent.`, valueRange("agent")),
    );
  }
  if (has("priority") && !(typeof raw.priority === "string" && NUMBER.test(raw.priority.trim()))) {
    out.push(diag("error", "priority.type", `priority must be a number (e.g. priority: 10), not ${JSON.stringify(raw.priority)}.`, valueRange("priority")));
  }
  if (has("tags")) {
    const v = raw.tags;
    if (typeof v === "string") out.push(diag("warning", "tags.type", "tags should be a YAML list (tags: [a, b]); this string is split on commas and spaces.", valueRange("tags")));
    else if (!Array.isArray(v) || !v.every((t) => typeof t === "string")) {
      out.push(diag("error", "tags.type", "tags must be a list of strings.", valueRange("tags")));
    }
  }
  if (has("execution")) checkExecution(raw.execution, out, valueRange("execution"));
  if (has("hooks")) checkHooks(raw.hooks, ctx, out, valueRange("hooks"), fields.get("hooks"), parsed);
  if (has("scope")) {
    const v = raw.scope;
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      out.push(diag("error", "scope.type", "scope must be a mapping with agents, tenants and/or environments lists.", valueRange("scope")));
    } else {
      for (const [key, list] of Object.entries(v as Record<string, unknown>)) {
        if (!(SCOPE_KEYS as readonly string[]).includes(key)) {
          const suggestion = suggestField(key, SCOPE_KEYS);
          out.push(diag("warning", "scope.unknown-key", `scope.${key} is not used (known: ${SCOPE_KEYS.join(", ")}).${suggestion ? ` Did you mean "${suggestion}"?` : ""}`, valueRange("scope")));
        } else if (typeof list !== "string" && !(Array.isArray(list) && list.every((x) => typeof x === "string"))) {
          out.push(diag("error", "scope.type", `scope.${key} must be a list of strings.`, valueRange("scope")));
        }
      }
    }
  }
}

function checkHooks(value: unknown, ctx: FrontmatterContext, out: Diagnostic[], range: Range, pos: FieldPos | undefined, parsed: ParsedSkill) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.push(diag("error", "hooks.type", "hooks must be a mapping with pre: and/or post: script paths.", range));
    return;
  }
  const nodeOf = (key: string): Range => {
    const child = pos?.children?.get(key);
    return child ? parsed.rangeOf(child.value ?? child.key) : range;
  };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key !== "pre" && key !== "post") {
      out.push(diag("warning", "hooks.unknown-key", `hooks.${key} is not run by OmniForge (only hooks.pre and hooks.post).`, nodeOf(key)));
      continue;
    }
    if (typeof v !== "string" || v.trim() === "") {
      out.push(diag("error", "hooks.type", `hooks.${key} must be a script path inside the skill, e.g. scripts/setup.sh.`, nodeOf(key)));
      continue;
    }
    const resolved = resolveInsideSkill(v);
    if (!resolved.ok) {
      out.push(diag("error", "hooks.path", `hooks.${key} "${v}" must be a relative path inside the skill folder (no absolute path, URL or ..).`, nodeOf(key)));
    } else if (ctx.fileExists) {
      const found = ctx.fileExists(resolved.path);
      if (found === "outside") {
        out.push(diag("error", "hooks.path", `hooks.${key} "${resolved.path}" is a symbolic link leading outside the skill folder; it is never run.`, nodeOf(key)));
      } else if (found !== true) {
        const why = found === "unreadable" ? "cannot be read (a folder on its path denies access)" : "does not exist in the skill folder";
        out.push(diag("warning", "hooks.missing-script", `hooks.${key} script "${resolved.path}" ${why}.`, nodeOf(key)));
      }
    }
  }
}

/** Paths a sandboxed script sees: its skill folder and the session scratch. */
const SANDBOX_PATHS = ["/skill", "/scratch"];

/**
 * Seed 000's per-skill `execution` block. The sandbox already gives every script the least (no network, the skill
 * read-only, the scratch), so a value can only ask for that or for more; more is reported as not granted, never
 * silently taken or silently dropped.
 */
function checkExecution(value: unknown, out: Diagnostic[], range: Range) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.push(diag("error", "execution.type", "execution must be a mapping with sandbox, allowed-paths and/or network.", range));
    return;
  }
  const notGranted = (what: string) => out.push(diag("warning", "execution.not-granted", `${what} is not granted: scripts run in the sandbox with no network and only /skill (read-only) and /scratch. Only an administrator's settings widen that.`, range));
  // Scalars arrive as written (the frontmatter reader keeps them as strings): "true", not true.
  const bool = (v: unknown) => (v === true || v === "true" ? true : v === false || v === "false" ? false : null);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === "sandbox") {
      const on = bool(v);
      if (on === null) out.push(diag("error", "execution.type", "execution.sandbox must be true or false.", range));
      else if (!on) notGranted("execution.sandbox: false");
    } else if (key === "network") {
      const b = bool(v);
      const n = b === null ? v : b ? "full" : "none";
      if (n !== "none" && n !== "restricted" && n !== "full") out.push(diag("error", "execution.type", `execution.network must be none, restricted or full, not ${JSON.stringify(v)}.`, range));
      else if (n !== "none") notGranted(`execution.network: ${String(v)}`);
    } else if (key === "allowed-paths") {
      const list = typeof v === "string" ? [v] : v;
      if (!Array.isArray(list) || !list.every((p) => typeof p === "string")) {
        out.push(diag("error", "execution.type", "execution.allowed-paths must be a list of paths.", range));
        continue;
      }
      const wider = list.filter((p) => !SANDBOX_PATHS.some((root) => p === root || p.startsWith(root + "/")));
      if (wider.length) notGranted(`execution.allowed-paths ${wider.join(", ")}`);
    } else {
      out.push(diag("warning", "execution.unknown-key", `execution.${key} is not used (known: sandbox, allowed-paths, network).`, range));
    }
  }
}
