import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedBy, timeNow } from "./columns";
import { users } from "./users";

// A console user as an OpenID provider knows them: the issuer and its subject (the provider's stable id; an email
// can change or be reused). A sign-in through the provider finds its user here, never by email alone.
export const userIdentities = sqliteTable(
  "user_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: ownedBy("user_id", () => users.id),
    createdAt: timeNow("created_at"),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] })],
);
