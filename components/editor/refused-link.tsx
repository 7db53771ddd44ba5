"use client";
// A skill folder that is a symbolic link leaving its layer cannot be opened (issue #12). The page says why and
// offers to remove the link itself; the server decides whether this user may (authors and admins, by layer).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "~/components/providers/trpc";
import type { SkillRef } from "./types";

export const LINK_CODES = new Set(["link.outside-layer", "link.broken", "link.is-root", "link.layer-outside"]);

export function RefusedLink({ skillRef, message }: { skillRef: SkillRef; message: string }) {
  const client = useTRPCClient();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    setError(null);
    try {
      await client.skill.delete.mutate({ ref: skillRef });
    } catch (e) {
      setError((e as Error).message);
      return;
    }
    void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() });
    router.push("/skills");
  }
  return (
    <div className="space-y-3" data-testid="refused-link">
      <p className="error-text" data-testid="editor-error">
        {message}
      </p>
      <div className="flex items-center gap-2">
        <Link className="btn" href="/skills">
          Back to skills
        </Link>
        {confirm ? (
          <>
            <span className="text-sm">Remove the link {skillRef.skill}? What it points at is not touched.</span>
            <button className="btn btn-danger" onClick={() => void remove()}>
              Remove link
            </button>
            <button className="btn" onClick={() => setConfirm(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button className="btn" onClick={() => setConfirm(true)}>
            Delete this link…
          </button>
        )}
      </div>
      {error && <p className="error-text">{error}</p>}
    </div>
  );
}
