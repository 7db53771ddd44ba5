import { Suspense } from "react";
import { hasRole } from "~/components/shell/nav";
import { requireUser } from "~/components/shell/require-user";
import { SkillsList } from "~/components/skills/skills-list";
import { EvalOverview } from "~/components/evals/eval-overview";

export const dynamic = "force-dynamic";

export default async function SkillsPage() {
  const user = await requireUser();
  return (
    <Suspense>
      <SkillsList canCreate={hasRole(user.role, "author")} me={user.id} isAdmin={user.role === "admin"} />
      <EvalOverview />
    </Suspense>
  );
}
