"use client";
// The requests the editor sends about the open skill on its own (the live check after typing, the disk poll, the
// refetch of its queries after a save), and whether the skill is being or has been deleted. A delete first quietens
// them and waits for the ones already sent: one that reached the server after the folder was gone answered 404, a
// failed request in the page for a skill the person deleted on purpose (the editor e2e's flake: a live check sent as
// the delete was confirmed). After the delete the page asks nothing more about the skill while it navigates away.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import type { SkillRef } from "../types";

export function useSkillPresence(skillRef: SkillRef) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [state, setState] = useState<"here" | "deleting" | "deleted">("here");
  const quiet = useRef(false);
  const inFlight = useRef(new Set<Promise<unknown>>());

  /** Sends a background request, unless the skill is being deleted (then null: nothing is sent). */
  const send = useCallback(<T>(request: () => Promise<T>): Promise<T> | null => {
    if (quiet.current) return null;
    const p = request();
    inFlight.current.add(p);
    const done = () => void inFlight.current.delete(p);
    p.then(done, done);
    return p;
  }, []);

  /** Stops background requests and refetches; resolves once those already sent have been answered. */
  const quieten = useCallback(async () => {
    quiet.current = true;
    setState("deleting");
    const input = { ref: skillRef };
    const keys = [trpc.skill.info.queryKey(input), trpc.skill.versions.queryKey(input), trpc.doctor.skill.queryKey(input), trpc.skill.disclosure.queryKey(input)];
    const fetching = () => keys.some((queryKey) => qc.isFetching({ queryKey }) > 0);
    const queries = new Promise<void>((resolve) => {
      if (!fetching()) return resolve();
      const stop = qc.getQueryCache().subscribe(() => {
        if (fetching()) return;
        stop();
        resolve();
      });
    });
    await Promise.allSettled([...inFlight.current, queries]);
  }, [qc, trpc, skillRef]);

  /** The delete was refused or failed: the skill is still there, the editor carries on. */
  const resume = useCallback(() => {
    quiet.current = false;
    setState("here");
  }, []);

  const setDeleted = useCallback(() => setState("deleted"), []);

  /** Queries about the skill run only while it is there (no refetch on window focus during or after a delete). */
  return { asking: state === "here", deleted: state === "deleted", send, quieten, resume, setDeleted };
}

export type SkillPresence = ReturnType<typeof useSkillPresence>;
