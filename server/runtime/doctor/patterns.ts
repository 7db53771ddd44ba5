// Words the script checks look for, shared by the shell and the Python/JavaScript scanners.

/** Programs that fetch from the network. */
export const FETCHERS = new Set(["curl", "wget", "fetch", "http", "https", "aria2c"]);
/** Programs that send data over the network (fetchers included). */
export const NETWORK = new Set([...FETCHERS, "nc", "ncat", "netcat", "scp", "sftp", "ftp", "telnet", "socat", "rsync", "ssh"]);
/** Programs that execute what they read from standard input or an argument. */
export const INTERPRETERS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node", "php", "eval", "source", "."]);

/** Credential files a skill has no business reading. */
export const CREDENTIAL_PATH = /(?:^|[\s"'`=(/~])(?:\.ssh\/|id_rsa|id_ed25519|id_ecdsa|\.aws\/(?:credentials|config)|\.aws\b|\.netrc|\.git-credentials|\.docker\/config\.json|\.kube\/config|\.config\/gh\/hosts|\.pgpass|\.npmrc|\.pypirc|\.gnupg\/)/;
/** Environment variables that hold secrets. */
export const SECRET_ENV = /\$\{?[A-Z0-9_]*(?:TOKEN|SECRET|API_KEY|APIKEY|PASSWORD|PASSWD|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*\}?/;

/** Files that run at every login or on a schedule. */
export const PERSISTENCE_PATH = /(?:\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|config\.fish|\/etc\/profile|\/etc\/cron|\/var\/spool\/cron|LaunchAgents|LaunchDaemons|\.config\/autostart|\/etc\/systemd|\.config\/systemd|\/etc\/init\.d|\/etc\/rc\.local)/;

/** A long base64 run: code hidden from review. */
export const LONG_BASE64 = /[A-Za-z0-9+/]{120,}={0,2}/;

/** A path outside the working folder: absolute (except throw-away places), home, or up out of it. */
export function isOutsidePath(p: string): boolean {
  const t = p.replace(/^["']|["']$/g, "");
  if (!t) return false;
  if (/^\/(?:dev|tmp|proc\/self)(?:\/|$)/.test(t) || /^\$\{?(?:TMPDIR|TMP|TEMP|RUNNER_TEMP)\b/.test(t)) return false;
  return t.startsWith("/") || t === "~" || t.startsWith("~/") || /^\$\{?HOME\b/.test(t) || t.startsWith("../") || t === "..";
}

/** rm -rf targets that delete far more than intended when the variable is empty or wrong. */
export function isDangerousRemoveTarget(p: string): boolean {
  const t = p.trim();
  if (t === "/" || t === "/*" || t === "~" || t === "~/" || t === "~/*" || t === ".." || t === "../") return true;
  if (/^\$\{?HOME\}?\/?\*?$/.test(t)) return true;
  // A target that starts with a variable, unless guarded with ${VAR:?} (the shell stops when it is empty).
  return /^\$/.test(t) && !t.includes(":?");
}
