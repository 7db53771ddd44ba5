// What each role may do, beside the role picker (issue 41 item 10): read from the domain's one list of rights, each
// role showing what it adds to the one below, so an administrator picks a role knowing what it grants.
import { ROLES, rightsAddedBy } from "~/server/domain/vocabulary";

const article = (word: string) => `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;

export function RoleRights() {
  return (
    <section className="card space-y-2 text-sm" aria-label="What each role can do" data-testid="role-rights">
      <h2 className="font-semibold">What each role can do</h2>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_minmax(0,1fr)]">
        {ROLES.map((role, i) => (
          <div key={role} className="contents" data-testid={`rights-${role}`}>
            <dt className="font-medium">{role}</dt>
            <dd>
              {i > 0 && <span className="muted">everything {article(ROLES[i - 1]!)} can, and </span>}
              {rightsAddedBy(role).join("; ")}.
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
