// The work a request may hand to the offload worker (pool.ts): pure functions of user-sized input (a trigger set
// pasted or stored, a skill's or a catalog's scripts), which would otherwise hold the console's one thread while
// they run. Arguments and results are plain data: they are copied between the processes.
import type { ServiceErrorCode } from "../../domain/errors";
import { doctorCatalog, doctorSkill, type CatalogReport, type SkillReport } from "../../runtime/doctor";
import { parseTaskEvals, parseTriggers } from "../../runtime/evals";
import { skillDigests } from "../../runtime/sources/publish-record";
import { decodeRequest, type Encoding } from "../telemetry/decode";
import type { Signal } from "../telemetry/otlp-proto";

/** Doctor options that cross the process boundary: the registry's rival counts by skill folder, not a callback. */
export interface DoctorJobOptions {
  ignore?: readonly string[];
  /** Same-name definitions in the skill's own layer, by absolute skill folder (absent: unknown). */
  rivals?: Record<string, number>;
}

const doctorOptions = (o: DoctorJobOptions) => ({ ...(o.ignore ? { ignore: o.ignore } : {}), ...(o.rivals ? { layerRivals: (s: { dir: string }) => o.rivals![s.dir] } : {}) });

export const JOBS = {
  parseTriggers: (text: string) => parseTriggers(text),
  parseTaskEvals: (text: string) => parseTaskEvals(text),
  doctorSkill: (dir: string, opts: DoctorJobOptions): SkillReport => doctorSkill(dir, doctorOptions(opts)),
  doctorCatalog: (dirs: string[], opts: DoctorJobOptions): CatalogReport => doctorCatalog(dirs, doctorOptions(opts)),
  // Reads and hashes every published skill's files: a catalog's worth of I/O and hashing.
  skillDigests,
  /** Each skill on its own, as the editor's panel sees it (no overlaps): the skill list's problem counts. */
  doctorSkills: (dirs: string[], opts: DoctorJobOptions): SkillReport[] => dirs.map((dir) => doctorSkill(dir, doctorOptions(opts))),
  decodeOtlp: (signal: Signal, encoding: Encoding, bytes: Uint8Array) => decodeRequest(signal, encoding, bytes),
};

export type JobName = keyof typeof JOBS;
export type JobArgs<K extends JobName> = Parameters<(typeof JOBS)[K]>;
export type JobResult<K extends JobName> = ReturnType<(typeof JOBS)[K]>;

export type ToOffload = { id: number; job: JobName; args: unknown[] };
/** A job's ServiceError crosses with its code and details, so the caller answers as if it ran there. */
export type FromOffload = { type: "ready" } | { type: "done"; id: number; value?: unknown; error?: string; code?: ServiceErrorCode; details?: Record<string, unknown> };
