import { requireUser } from "~/components/shell/require-user";
import { TokensAdmin } from "~/components/tokens/tokens-admin";

export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const user = await requireUser();
  return <TokensAdmin isAdmin={user.role === "admin"} />;
}
