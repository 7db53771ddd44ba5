import { LayersView } from "~/components/layers/layers-view";
import { readLayersUrl } from "~/components/layers/url-state";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function LayersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireUser();
  return <LayersView initial={readLayersUrl(await searchParams)} />;
}
