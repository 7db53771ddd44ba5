import { hasRole } from "~/components/shell/nav";
import { requireUser } from "~/components/shell/require-user";
import { DeletedSkills } from "~/components/skills/deleted-skills";

export const dynamic = "force-dynamic";

export default async function DeletedSkillsPage() {
  const user = await requireUser();
  return <DeletedSkills canRestore={hasRole(user.role, "author")} />;
}
