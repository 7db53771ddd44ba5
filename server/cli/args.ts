// Flags, usage and --help, the same way for every command: a usage problem prints "omniforge <command>: <what>"
// and the usage on stderr and exits 2; --help prints the usage and exits 0. Only node:util (and the CLI's own
// printable text) here, so the light commands (validate, to-prompt) stay light in the CLI bundle.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { errorLine } from "./error-line";
import type { CliIO } from "./io";
import { printableLines } from "./printable";
import { nearest } from "../domain/suggest";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Flags every registry command takes. */
export const LAYER_FLAGS = {
  home: { type: "string" },
  project: { type: "string" },
  user: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

/** --environment, with --env as its short alias: one spelling in every command's usage. */
export const ENVIRONMENT_FLAGS = {
  environment: { type: "string" },
  env: { type: "string" },
} as const satisfies Options;

/** The environment asked for, whichever spelling was used. */
export const environmentOf = (values: { environment?: string; env?: string }): string | undefined => values.environment ?? values.env;

/** LAYER_FLAGS plus the resolution context (--environment/--env, --agent, --tenant), for commands that resolve skills. */
export const CONTEXT_FLAGS = {
  ...LAYER_FLAGS,
  ...ENVIRONMENT_FLAGS,
  agent: { type: "string" },
  tenant: { type: "string" },
} as const satisfies Options;

/** Flags that each take one value: `...stringFlags("from", "scope")`. */
export function stringFlags<K extends string>(...names: K[]): Record<K, { type: "string" }> {
  return Object.fromEntries(names.map((n) => [n, { type: "string" }])) as Record<K, { type: "string" }>;
}

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>;

/** parseArgs with strict checking; a usage problem becomes a message (exit 2) instead of a stack trace. */
function parseFlags<O extends Options>(args: string[], options: O): Parsed<O> | string {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    // Node's message goes on to explain "--" escaping, which is noise for a usage line.
    const line = (e as Error).message.split("\n")[0]!.replace(/\. To specify a positional.*$/, "");
    // "--limit -1": the value looks like a flag to parseArgs, which calls that ambiguous.
    const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(line);
    if (ambiguous) return `${ambiguous[1]} needs a value (a value starting with "-" is written ${ambiguous[1]}=-…)`;
    const unknown = /^Unknown option '--([^']+)'/.exec(line);
    const meant = unknown && nearest(unknown[1]!, Object.keys(options));
    return meant ? `${line}: did you mean --${meant}?` : line;
  }
}

/**
 * A flag's value as a whole number from `min` to `max`, written in decimal digits only: Number() would also take
 * "0x10", "1e99", " 7" and "", none of which a person means as a count. Null when it is not one.
 */
export function wholeNumber(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  if (!/^\d{1,15}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

export interface Command<O extends Options, R extends string = never> {
  /** The flags; the required ones are there (parseCommand checked). */
  values: Parsed<O>["values"] & Record<R, string>;
  positionals: string[];
  /**
   * Prints the problem on stderr and returns the exit code 2: a string is a usage problem (the usage follows it), an
   * Error one with what the command was pointed at (a folder that is none, a wrong config.yaml): its one line only.
   */
  fail(problem: string | Error): 2;
}

/** What a command expects beyond its flags' types, checked before it runs. */
export interface Expect<R extends string> {
  /** The command takes flags only: an argument is a usage problem. */
  noArguments?: boolean;
  /** Flags that must be given, in the order they are checked, each with a hint for the person ("" for none). */
  required?: Record<R, string>;
}

/** Parses a command's arguments; returns the exit code instead when they are wrong or --help was asked. */
export function parseCommand<O extends Options, R extends string = never>(
  name: string,
  usage: string,
  args: string[],
  options: O,
  io: CliIO,
  expect: Expect<R> = {},
): Command<O, R> | 0 | 2 {
  const text = usage.endsWith("\n") ? usage : `${usage}\n`;
  const fail = (problem: string | Error): 2 => {
    // Problems quote what was given (a name, a path): control characters in it are shown, not obeyed.
    io.err(typeof problem === "string" ? `omniforge ${name}: ${printableLines(problem)}\n${text}` : `omniforge ${name}: ${errorLine(problem)}\n`);
    return 2;
  };
  const parsed = parseFlags(args, options);
  if (typeof parsed === "string") return fail(parsed);
  if ((parsed.values as { help?: boolean }).help) {
    io.out(text);
    return 0;
  }
  if (expect.noArguments && parsed.positionals.length) return fail(`unexpected "${parsed.positionals[0]}"`);
  const values = parsed.values as Record<string, unknown>;
  for (const [flag, hint] of Object.entries<string>(expect.required ?? ({} as Record<R, string>))) {
    if (!values[flag]) return fail(`--${flag} is required${hint ? ` (${hint})` : ""}`);
  }
  return { values: parsed.values as Command<O, R>["values"], positionals: parsed.positionals, fail };
}
