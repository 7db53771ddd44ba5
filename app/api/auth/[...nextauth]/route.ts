import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptionsFor, clientIp } from "~/server/auth";

// Options per request: the OpenID sign-in's callback records the address it came from.
function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(req, ctx as never, authOptionsFor(clientIp(req.headers)));
}
export { handler as GET, handler as POST };
