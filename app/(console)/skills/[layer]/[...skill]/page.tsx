import { EditorShell } from "~/components/editor/editor-shell";
import { PROJECT_SKILL_DIRS } from "~/server/runtime/registry/layers";
import { EvalsView } from "~/components/evals/evals-view";
import type { SkillRef } from "~/components/editor/types";
import { requireUser } from "~/components/shell/require-user";
import { SkillDeployments } from "~/components/tokens/skill-deployments";
import { LAYERS } from "~/server/domain/vocabulary";

export const dynamic = "force-dynamic";

// A malformed %-escape stays as written; the server then refuses the folder name with a clear message.
const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

// /skills/<layer>/<folder...>?plugin=&base=&owner=&file= : the editor of one skill definition; ?view=evals: its trigger
// tests. Rights are checked by the server on every call; an unknown layer is just a clear message.
export default async function SkillEditorPage(props: {
  params: Promise<{ layer: string; skill: string[] }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireUser();
  const { layer, skill } = await props.params;
  const sp = await props.searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  if (!(LAYERS as readonly string[]).includes(layer)) {
    return <p className="error-text">Unknown layer “{layer}”.</p>;
  }
  const base = one(sp.base);
  const ref: SkillRef = {
    layer: layer as SkillRef["layer"],
    skill: skill.map(safeDecode).join("/"),
    ...(one(sp.plugin) ? { plugin: one(sp.plugin) } : {}),
    ...(base && (PROJECT_SKILL_DIRS as readonly string[]).includes(base) ? { base: base as SkillRef["base"] } : {}),
    // Someone else's personal skill (an administrator's review); the server decides whether this user may.
    ...(layer === "personal" && one(sp.owner) ? { ownerId: one(sp.owner) } : {}),
    // A git source's checkout (read-only): the server finds the folder from the source's record.
    ...(one(sp.source) ? { source: one(sp.source) } : {}),
  };
  // The owner is part of which skill this is, in both views (two users may each have a personal "notes").
  if (one(sp.view) === "evals") return <EvalsView key={`evals/${ref.layer}/${ref.plugin ?? ""}/${ref.base ?? ""}/${ref.ownerId ?? ""}/${ref.source ?? ""}/${ref.skill}`} skillRef={ref} />;
  return (
    <>
      <EditorShell key={`${ref.layer}/${ref.plugin ?? ""}/${ref.base ?? ""}/${ref.ownerId ?? ""}/${ref.source ?? ""}/${ref.skill}`} skillRef={ref} initialFile={one(sp.file)} />
      {/* Synced copies are named by the skill's folder name, which the spec makes its name. */}
      <div className="mt-6">
        <SkillDeployments name={ref.skill.split("/").at(-1)!} />
      </div>
    </>
  );
}
