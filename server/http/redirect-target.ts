// Where to send a person after sign-in: only a path of this site. A prefix check on the text is not enough,
// because browsers read "/\evil.example" (and "/<tab>/evil.example") as "//evil.example", another site:
// an open redirect after sign-in is a phishing aid. The path is parsed as a browser parses it and kept only
// when it stays on this origin; what is returned is the parsed form, so the browser follows what was checked.

const BASE = "http://omniforge.invalid";

export function sameSitePath(raw: string | undefined | null): string {
  if (typeof raw !== "string" || !raw.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return "/";
  }
  return url.origin === BASE ? url.pathname + url.search + url.hash : "/";
}
