// Next 16 proxy (formerly middleware): passes the requested path to server layouts, so the sign-in page can
// send a person back where they were going. Authorisation itself happens in layouts and procedures.
import { NextResponse, type NextRequest } from "next/server";

export function proxy(req: NextRequest) {
  const h = new Headers(req.headers);
  h.set("x-omniforge-path", req.nextUrl.pathname + req.nextUrl.search);
  return NextResponse.next({ request: { headers: h } });
}

export const config = { matcher: ["/((?!api|_next|icon.svg|favicon.ico).*)"] };
