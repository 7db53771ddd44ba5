// The runtime protocol's limits (spec 004, seeds 000/001). Numbers and names only: the code applying them says why.

/** Skills loaded at once in a session (skills.load); OMNIFORGE_MAX_LOADED_SKILLS overrides it. */
export const DEFAULT_MAX_LOADED_SKILLS = 3;
/** Skills on one activation chain (a skill activating a skill...), across fork sub-agents; OMNIFORGE_MAX_ACTIVATION_DEPTH overrides it. */
export const DEFAULT_MAX_ACTIVATION_DEPTH = 5;

/**
 * A skill's script folders (seed 001: scripts/, bin/ and tools/), matched in any case at the top of the skill
 * folder: their files are run, never read, and the script tools run nothing else.
 */
export const SCRIPT_FOLDERS: readonly string[] = ["scripts", "bin", "tools"];

/** Whether a folder name is one of the script folders (any case, as a case-insensitive disk would see it). */
export function isScriptFolder(name: string): boolean {
  return SCRIPT_FOLDERS.includes(name.toLowerCase());
}

/** Whether a skill-relative, "/"-separated path names a file inside a script folder. */
export function inScriptFolder(rel: string): boolean {
  const parts = rel.replace(/^\.\//, "").split("/");
  return parts.length > 1 && isScriptFolder(parts[0]!) && parts.at(-1) !== "";
}

/** The script folders as a person reads them: "scripts/, bin/ or tools/". */
export const SCRIPT_FOLDERS_TEXT = `${SCRIPT_FOLDERS.slice(0, -1).map((f) => `${f}/`).join(", ")} or ${SCRIPT_FOLDERS.at(-1)}/`;

/**
 * Variables a script's `env` may not set, because they would change what runs or where it reaches rather than
 * what the script is told: the search path (a PATH into the skill or the scratch would run planted programs),
 * the dynamic loader, proxies, and the startup hooks of shells and interpreters.
 */
export const SCRIPT_ENV_BLOCKED_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "TMPDIR",
  "SHELL",
  "IFS",
  "ENV",
  "BASH_ENV",
  "CDPATH",
  "GLOBIGNORE",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PROMPT_COMMAND",
  "NODE_OPTIONS",
  "NODE_PATH",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONSTARTUP",
  "PYTHONUSERBASE",
  "PYTHONINSPECT",
  "PERL5LIB",
  "PERL5OPT",
  "PERLLIB",
  "RUBYLIB",
  "RUBYOPT",
  "GCONV_PATH",
  "GLIBC_TUNABLES",
  "HOSTALIASES",
  "RESOLV_HOST_CONF",
  "LOCALDOMAIN",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
];

/** Prefixes (case-insensitive) of blocked variables: the loader (LD_*, DYLD_*), malloc hooks, and every proxy setting. */
export const SCRIPT_ENV_BLOCKED_PREFIXES: readonly string[] = ["LD_", "DYLD_", "MALLOC_", "BASH_FUNC_"];
/** Any name containing this (case-insensitive) is a proxy setting: http_proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY... */
export const SCRIPT_ENV_PROXY_MARK = "PROXY";
