import NextAuth from "next-auth";
import { NextResponse, type NextRequest } from "next/server";
import { authOptionsFor, clientIp } from "~/server/auth";
import { oidcCallbackRefusal } from "~/server/auth-oidc";
import { answeringDatabaseDown, NEXT_AUTH_BODY } from "~/server/http/database-down";

// Options per request: the OpenID sign-in's callback records the address it came from, and is counted per address
// before next-auth reads it.
async function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) {
  const ip = clientIp(req.headers);
  const refused = await oidcCallbackRefusal((await ctx.params).nextauth, ip, req.url);
  if (refused) return NextResponse.redirect(refused, 303);
  return NextAuth(req, ctx as never, authOptionsFor(ip));
}
// The callback's count and next-auth's own sign-in and sign-out read the database: away, the answer is one 503 line.
const answer = answeringDatabaseDown(handler, NEXT_AUTH_BODY);
export { answer as GET, answer as POST };
