import { LayersView } from "~/components/layers/layers-view";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function LayersPage() {
  await requireUser();
  return <LayersView />;
}
