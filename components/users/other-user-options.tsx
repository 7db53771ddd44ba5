"use client";
// The people an admin can look at on behalf of: every user but the one signed in, by email. The skills list
// and the layers what-if both offer them after their own "me" choice.
import { Options } from "~/components/shell/options";

export function OtherUserOptions({ users, me }: { users: readonly { id: string; email: string }[] | undefined; me: string | undefined }) {
  return <Options values={(users ?? []).filter((u) => u.id !== me)} value={(u) => u.id} label={(u) => u.email} />;
}
