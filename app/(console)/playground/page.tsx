import { Suspense } from "react";
import { Playground } from "~/components/playground/playground";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

// Everyone signed in may open the playground; starting sessions and chatting needs the author role, which
// every playground procedure checks again on the server.
export default async function PlaygroundPage() {
  const user = await requireUser();
  return (
    <Suspense>
      <Playground canStart={user.role !== "viewer"} />
    </Suspense>
  );
}
