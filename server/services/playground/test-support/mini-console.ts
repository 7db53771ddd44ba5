// A console in miniature for turn-worker.test.ts, run as its own process (node --import tsx): one playground turn
// whose script sleeps for a while. It prints "ready <worker pid> <script pids>" once the script runs, then waits to
// be killed, as a console dies mid-turn.
import fs from "node:fs";
import { createSession, startTurn, warmTurnWorker } from "../index";
import { playgroundWorld } from "./playground";

/** The script's own process: a sleep of a length nothing else on the machine uses. */
const SLEEP = "29.7";

const sleeping = () =>
  fs.readdirSync("/proc").filter((d) => {
    if (!/^\d+$/.test(d)) return false;
    try {
      return fs.readFileSync(`/proc/${d}/cmdline`, "utf8") === `sleep\0${SLEEP}\0`;
    } catch {
      return false; // ended meanwhile
    }
  });

setInterval(() => {}, 1000);
const w = playgroundWorld();
w.skill("slow-report", "description: Build the slow report from the nightly data. Use when asked for the slow report.", `# Slow report\n\n\`\`\`bash\nsleep ${SLEEP}\n\`\`\`\n`);
const pid = await warmTurnWorker({});
const alice = { id: "alice", role: "author" as const };
const s = await createSession(w.db, w.dataHome, alice, { provider: "offline" });
await startTurn({ db: w.db, dataHome: w.dataHome, audit: w.audit, env: {} }, alice, s.id, { request: "build the slow report" });
while (sleeping().length === 0) await new Promise((r) => setTimeout(r, 20));
console.log(`ready ${pid} ${sleeping().join(",")}`);
