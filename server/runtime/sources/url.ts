// A source's repository address: which transports are allowed, and the form of it that may be shown. A URL may
// carry a password (https://user:token@host/repo); it reaches git and the private secrets file only, never a
// terminal, a log, the state file or the audit.

/** The transports git may use for a source (GIT_ALLOW_PROTOCOL); ext::, fd:: and the rest are refused. */
export const SOURCE_PROTOCOLS = ["file", "https", "http", "git", "ssh"] as const;

export class SourceUrlError extends Error {
  readonly code = "source.bad-url";
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
// git's scp-like form: user@host:path (no scheme, a colon before any slash).
const SCP_LIKE = /^(?:[^@/\s]+@)?[^:/\s]+:(?!\/\/)/;

/** Throws a SourceUrlError when git should not be handed `url`; returns the transport it will use. */
export function checkSourceUrl(url: string): (typeof SOURCE_PROTOCOLS)[number] {
  if (!url || /[\s\0]/.test(url.trim()) || url !== url.trim()) throw new SourceUrlError("the repository URL is empty or holds spaces or control characters");
  // An address starting with "-" would be read by git as an option.
  if (url.startsWith("-")) throw new SourceUrlError("the repository URL may not start with '-'");
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme) {
    const allowed = SOURCE_PROTOCOLS.find((p) => p === scheme);
    if (!allowed) throw new SourceUrlError(`the repository URL uses "${scheme}://"; sources use ${SOURCE_PROTOCOLS.join(", ")} only`);
    return allowed;
  }
  if (url.includes("::")) throw new SourceUrlError("git's remote helpers (transport::address) are not allowed for sources");
  if (url.startsWith("/")) return "file";
  if (SCP_LIKE.test(url)) return "ssh";
  throw new SourceUrlError("give the repository as a URL (https://, ssh://, git://, file://), an absolute folder, or user@host:path");
}

/** `url` without a password: https://user:secret@host/x -> https://user:***@host/x. Other forms are unchanged. */
export function redactUrl(url: string): string {
  const m = SCHEME.exec(url);
  if (!m) return url;
  const rest = url.slice(m[0].length);
  const at = rest.search(/[/?#]/);
  const authority = at === -1 ? rest : rest.slice(0, at);
  const i = authority.lastIndexOf("@");
  if (i === -1) return url;
  const userinfo = authority.slice(0, i);
  const colon = userinfo.indexOf(":");
  if (colon === -1) return url;
  return `${m[0]}${userinfo.slice(0, colon)}:***@${authority.slice(i + 1)}${at === -1 ? "" : rest.slice(at)}`;
}

/** The secret parts of `url` (its password, as written and percent-decoded), to cut out of git's own messages. */
export function secretsOf(url: string): string[] {
  const m = SCHEME.exec(url);
  if (!m) return [];
  const authority = url.slice(m[0].length).split(/[/?#]/)[0]!;
  const i = authority.lastIndexOf("@");
  const colon = authority.indexOf(":");
  if (i === -1 || colon === -1 || colon > i) return [];
  const password = authority.slice(colon + 1, i);
  if (!password) return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // not valid percent-encoding: the text as written is what could be echoed
  }
  return [...new Set([password, decoded])];
}

/** `text` with every secret of `url` replaced by ***. */
export function scrubSecrets(text: string, url: string): string {
  let out = text;
  for (const s of secretsOf(url)) out = out.split(s).join("***");
  return out;
}
