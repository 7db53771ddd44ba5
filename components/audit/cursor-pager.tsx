"use client";

/** Newer/Older buttons over keyset pages: `cursors` is the stack of page starts seen so far. */
export function CursorPager({
  cursors,
  nextCursor,
  onChange,
}: {
  cursors: (string | undefined)[];
  nextCursor: string | null | undefined;
  onChange: (cursors: (string | undefined)[]) => void;
}) {
  return (
    <div className="flex gap-2">
      <button className="btn" disabled={cursors.length <= 1} onClick={() => onChange(cursors.slice(0, -1))}>
        Newer
      </button>
      <button className="btn" disabled={nextCursor == null} onClick={() => onChange([...cursors, nextCursor!])}>
        Older
      </button>
    </div>
  );
}
