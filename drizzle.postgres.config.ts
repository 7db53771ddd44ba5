import { defineConfig } from "drizzle-kit";

// The PostgreSQL migrations, generated from the tables db/postgres/schema.ts derives from db/schema.
export default defineConfig({
  schema: "./db/postgres/schema.ts",
  out: "./db/migrations/postgres",
  dialect: "postgresql",
});
