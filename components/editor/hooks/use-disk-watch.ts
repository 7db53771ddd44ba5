"use client";
// Notices at once when the open file changes on disk (a git pull, another editor): an untouched buffer takes the new
// text with a notice; an edited one opens the comparison (keep yours or take the disk's), instead of waiting for a
// save to be refused.
import { createTwoFilesPatch } from "diff";
import { useEffect, useRef } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import type { SkillRef } from "../types";
import type { Conflict } from "./use-save";
import type { useSkillBuffers } from "./use-skill-buffers";

const EVERY_MS = 2500;

export function useDiskWatch(opts: {
  skillRef: SkillRef;
  files: ReturnType<typeof useSkillBuffers>;
  conflict: Conflict | null;
  /** A save or another request is running: its own answer updates the buffer. */
  busy: boolean;
  setConflict: (c: Conflict) => void;
  setNotice: (n: string | null) => void;
}) {
  const client = useTRPCClient();
  const latest = useRef(opts);
  latest.current = opts;
  useEffect(() => {
    let stopped = false;
    const timer = setInterval(() => {
      const { files, conflict, skillRef, setConflict, setNotice } = latest.current;
      const p = files.openPathRef.current;
      const buf = files.buffersRef.current[p];
      if (!buf || conflict || latest.current.busy || document.hidden) return;
      void client.skill.readFile
        .query({ ref: skillRef, path: p })
        .then((disk) => {
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
        .catch(() => {
          // Deleted or unreadable now: the next save says so.
        });
    }, EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [client]);
}
