import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "~/server/api/root";
import { getSessionUser, requestIp } from "~/server/auth";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async () => {
      const { db, dataHome } = await ensureReady();
      return { db, dataHome, audit: auditSinkFor(db), user: await getSessionUser(), ip: await requestIp() };
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path ?? "?"}:`, error);
    },
  });

export { handler as GET, handler as POST };
