import { clientIp, sessionUserOfRequest } from "~/server/auth";
import { env } from "~/env";
import { answerAtEdge } from "~/server/http/edge";
import { allowedOrigins } from "~/server/http/origin";
import { handleTrpcRequest } from "~/server/http/trpc-route";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";

let origins: Set<string> | undefined;
// Read at the first request, not at import: `next build` imports this module without the runtime settings.
const consoleOrigins = () =>
  (origins ??= allowedOrigins({
    NEXTAUTH_URL: env.NEXTAUTH_URL,
    PORT: env.PORT === undefined ? undefined : String(env.PORT),
    OMNIFORGE_ALLOWED_ORIGINS: env.OMNIFORGE_ALLOWED_ORIGINS,
  }));

// Everything is read from the request itself (not next/headers), so the console's server can run this same
// handler straight from the socket (server/http/edge.ts).
const handler = (req: Request) =>
  handleTrpcRequest(req, {
    allowedOrigins: consoleOrigins(),
    context: async ({ bearer }) => {
      const { db, dataHome } = await ensureReady();
      // A bearer request is judged by its token alone: the browser's cookie does not count for it.
      const user = bearer ? null : await sessionUserOfRequest(req.headers);
      return { db, dataHome, audit: auditSinkFor(db), user, ip: clientIp(req.headers) };
    },
  });

answerAtEdge("/api/trpc", ["GET", "POST"], handler);

export { handler as GET, handler as POST };
