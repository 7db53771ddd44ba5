// Starting points for a new skill. Each yields valid files under the omniforge rules, so a new skill starts green.
export interface SkillTemplate {
  id: string;
  label: string;
  files: (name: string, description: string) => { path: string; text: string; executable?: boolean }[];
}

const skillMd = (name: string, description: string, extra: string) =>
  `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n\n${extra}`;

export const SKILL_TEMPLATES: SkillTemplate[] = [
  {
    id: "basic",
    label: "Instructions only",
    files: (name, description) => [
      {
        path: "SKILL.md",
        text: skillMd(name, description, "## When to use\n\nDescribe the situations this skill is for.\n\n## Steps\n\n1. First step.\n2. Second step.\n"),
      },
    ],
  },
  {
    id: "with-reference",
    label: "Instructions and a reference file",
    files: (name, description) => [
      {
        path: "SKILL.md",
        text: skillMd(name, description, "## Steps\n\n1. Read [the reference](references/REFERENCE.md) when you need details.\n2. Apply it.\n"),
      },
      { path: "references/REFERENCE.md", text: `# ${name} reference\n\nDetails the agent reads only when needed.\n` },
    ],
  },
  {
    id: "with-script",
    label: "Instructions and a script",
    files: (name, description) => [
      {
        path: "SKILL.md",
        text: skillMd(name, description, "## Steps\n\n1. Run `scripts/run.sh` (execute it; do not read it).\n2. Report its output.\n"),
      },
      { path: "scripts/run.sh", text: '#!/bin/sh\nset -eu\necho "hello from the skill"\n', executable: true },
    ],
  },
];

export const templateById = (id: string) => SKILL_TEMPLATES.find((t) => t.id === id);
