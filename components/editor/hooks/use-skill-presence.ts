"use client";
// The requests the editor sends about the open skill on its own (the live check after typing, the disk poll), and
// whether the skill is being or has been deleted. A delete first quietens them and waits for the ones already sent:
// one that reached the server after the folder was gone answered 404, a failed request in the page for a skill the
// person deleted on purpose (the editor e2e's flake: a live check sent as the delete was confirmed). After the delete
// the page asks nothing more about the skill while it navigates away.
import { useCallback, useRef, useState } from "react";

export function useSkillPresence() {
  const [deleted, setDeletedState] = useState(false);
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

  /** Stops background requests; resolves once those already sent have been answered. */
  const quieten = useCallback(async () => {
    quiet.current = true;
    await Promise.allSettled([...inFlight.current]);
  }, []);

  /** The delete was refused or failed: the skill is still there, the editor carries on. */
  const resume = useCallback(() => {
    quiet.current = false;
  }, []);

  const setDeleted = useCallback(() => {
    quiet.current = true;
    setDeletedState(true);
  }, []);

  return { deleted, send, quieten, resume, setDeleted };
}

export type SkillPresence = ReturnType<typeof useSkillPresence>;
