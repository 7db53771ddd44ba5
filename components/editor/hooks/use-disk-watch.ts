"use client";
// Notices at once when the open file changes on disk (a git pull, another editor): an untouched buffer takes the new
// text with a notice; an edited one opens the comparison (keep yours or take the disk's), instead of waiting for a
// save to be refused. A file deleted on disk is said once and not asked for again.
import { TRPCClientError } from "@trpc/client";
import { createTwoFilesPatch } from "diff";
import { useEffect, useRef } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import type { SkillRef } from "../types";
import type { Conflict } from "./use-save";
import type { useSkillBuffers } from "./use-skill-buffers";
import type { SkillPresence } from "./use-skill-presence";

const EVERY_MS = 2500;

export function useDiskWatch(opts: {
  skillRef: SkillRef;
  files: ReturnType<typeof useSkillBuffers>;
  conflict: Conflict | null;
  /** A save or another request is running: its own answer updates the buffer. */
  busy: boolean;
  setConflict: (c: Conflict) => void;
  setNotice: (n: string | null) => void;
  /** Sends the poll (nothing once the skill is being deleted). */
  send: SkillPresence["send"];
}) {
  const client = useTRPCClient();
  const latest = useRef(opts);
  latest.current = opts;
  useEffect(() => {
    let stopped = false;
    const timer = setInterval(() => {
      const { files, conflict, skillRef, setConflict, setNotice, send } = latest.current;
      const p = files.openPathRef.current;
      const buf = files.buffersRef.current[p];
      // digest null: not on disk (deleted there, or new): nothing to compare with.
      if (!buf || buf.digest === null || conflict || latest.current.busy || document.hidden) return;
      send(() => client.skill.readFile.query({ ref: skillRef, path: p }))
        ?.then((disk) => {
          const now = latest.current.files.buffersRef.current[p];
          if (stopped || !now || disk.digest === now.digest || disk.text === null || latest.current.conflict || latest.current.busy) return;
          if (now.text === now.saved) {
            files.syncLater(p);
            files.setBuffers((prev) => ({ ...prev, [p]: { ...prev[p]!, text: disk.text!, saved: disk.text!, digest: disk.digest } }));
            setNotice(`${p} changed on disk; the editor shows the new version.`);
          } else {
            setConflict({
              path: p,
              theirs: disk.text!,
              theirsDigest: disk.digest,
              yours: now.text,
              diff: createTwoFilesPatch(`${p} (on disk)`, `${p} (yours)`, disk.text!, now.text),
              message: `${p} changed on disk while you were editing it. Compare: keep yours (it is saved over the disk's) or take the version on disk.`,
            });
          }
        })
        .catch((e: unknown) => {
          const now = latest.current.files.buffersRef.current[p];
          if (stopped || !now || now.digest === null || !(e instanceof TRPCClientError) || e.data?.code !== "NOT_FOUND") return; // unreadable now: the next save says so
          // Deleted on disk: the buffer keeps the text, and saving creates the file again (a save of a new file).
          files.setBuffers((prev) => (prev[p] ? { ...prev, [p]: { ...prev[p]!, digest: null } } : prev));
          setNotice(`${p} was deleted on disk; the editor keeps your text, and saving creates the file again.`);
        });
    }, EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [client]);
}
