import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { streamOpenAi } from "../server/runtime/agent/test-support/sse";
import { createUserViaUi, signIn, signInAsAdmin, signOut, uniqueEmail } from "./helpers";

// A scripted OpenAI-compatible model on the port playwright.config.ts gives the console (OPENAI_BASE_URL):
// per turn it activates release-notes, runs its script, tries a command outside allowed-tools, then answers.
const MODEL_PORT = 3199;
const REASON = "The request is about a release, so I use the release-notes skill.";
const SCRIPTED_ANSWER = "Scripted model: the release notes are drafted from the collected changes.";
interface Msg {
  role: string;
  content?: unknown;
}
const received: { model: string; tools: string[] }[] = [];
let modelServer: http.Server;
const ENV_SKILL_DIR = path.join(E2E_HOME, "demo-project", ".omniforge", "skills", "env-inspector");

function scriptedReply(messages: Msg[]): { content: string | null; call?: { name: string; arguments: Record<string, unknown> } } {
  let lastUser = 0;
  messages.forEach((m, k) => {
    if (m.role === "user") lastUser = k;
  });
  const results = messages.slice(lastUser + 1).filter((m) => m.role === "tool").length;
  if (JSON.stringify(messages[lastUser]?.content ?? "").includes("take your time")) return { content: "Finally done." };
  if (results === 0) return { content: REASON, call: { name: "skill", arguments: { name: "release-notes" } } };
  if (results === 1) return { content: null, call: { name: "run_script", arguments: { script: "scripts/collect_changes.py" } } };
  if (results === 2) return { content: null, call: { name: "bash", arguments: { command: "cat /etc/hostname" } } };
  return { content: SCRIPTED_ANSWER };
}

test.beforeAll(async () => {
  modelServer = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "no route" } }));
        return;
      }
      const body = JSON.parse(raw) as { model: string; messages: Msg[]; tools?: { function: { name: string } }[]; stream?: boolean };
      received.push({ model: body.model, tools: (body.tools ?? []).map((t) => t.function.name) });
      const n = received.length;
      if (JSON.stringify(body.messages.at(-1)?.content ?? "").includes("fail on purpose")) {
        // The provider is down for this request: a 500 (after the SDK's retry too).
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "scripted outage" } }));
        return;
      }
      const reply = scriptedReply(body.messages);
      // "take your time" is answered only after a long pause, so the person has a running turn to stop.
      const slow = reply.content === "Finally done.";
      const toolCalls = reply.call ? [{ id: `call_${n}`, type: "function", function: { name: reply.call.name, arguments: JSON.stringify(reply.call.arguments) } }] : undefined;
      const answer = () => {
        if (res.destroyed) return;
        // The console streams real providers' answers (server-sent events), as the real APIs send them.
        if (body.stream) return void streamOpenAi(res, { ...(reply.content ? { content: reply.content } : {}), ...(reply.call ? { toolCalls: [reply.call] } : {}) }, n, body.model);
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: `chatcmpl-${n}`,
            object: "chat.completion",
            created: 1_700_000_000 + n,
            model: body.model,
            choices: [{ index: 0, message: { role: "assistant", content: reply.content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: toolCalls ? "tool_calls" : "stop" }],
            usage: { prompt_tokens: 200 + n, completion_tokens: 12, total_tokens: 212 + n },
          }),
        );
      };
      if (slow) setTimeout(answer, 20_000);
      else answer();
    });
  });
  await new Promise<void>((resolve) => modelServer.listen(MODEL_PORT, "127.0.0.1", resolve));

  // A project skill whose instructions make the offline provider run a command its allowed-tools forbid.
  fs.mkdirSync(ENV_SKILL_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(ENV_SKILL_DIR, "SKILL.md"),
    "---\nname: env-inspector\ndescription: Inspect the environment variables of the machine. Use when asked to inspect the environment.\nallowed-tools: Read\n---\n# Inspect\n\n```bash\nenv\n```\n",
  );
});

test.afterAll(async () => {
  // Specs that run later in the same data home see the demo skills only.
  fs.rmSync(ENV_SKILL_DIR, { recursive: true, force: true });
  modelServer.closeAllConnections();
  await new Promise<void>((resolve) => modelServer.close(() => resolve()));
});

async function startSession(page: Page, title: string, provider?: string) {
  await page.goto("/playground");
  const form = page.getByRole("form", { name: "New session" });
  await form.getByLabel("Title").fill(title);
  if (provider) await form.getByLabel("Provider").selectOption({ label: provider });
  await form.getByRole("button", { name: "Start session" }).click();
  await expect(page.getByTestId("session-title")).toHaveText(title);
  await expect(page).toHaveURL(/\/playground\?session=[0-9a-f-]{36}/);
}

async function send(page: Page, text: string) {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

test("offline provider: a demo skill activates, its script runs, a disallowed call is refused, history survives a reload", async ({ page }) => {
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" }).click();
  await expect(page).toHaveURL(/\/playground/);
  await startSession(page, "Offline release notes");
  await expect(page.getByTestId("session-settings")).toContainText("offline/offline-rules-1 · tool mode");
  // Before the first turn the side panel previews the listing the agent will see.
  await expect(page.getByTestId("side-listing")).toContainText('"release-notes": Draft release notes');

  await send(page, "draft the release notes");
  const turn = page.getByTestId("turn").last();
  await expect(turn.getByTestId("answer")).toContainText("Offline provider", { timeout: 30_000 });
  await expect(turn.getByTestId("step-selected")).toContainText("release-notes");
  await expect(turn.getByTestId("step-activation")).toContainText("Activating 'release-notes' skill...");
  const listing = turn.getByTestId("step-listing");
  await listing.locator("summary").click();
  await expect(listing.getByTestId("listing-text")).toContainText('"release-notes": Draft release notes from the list of merged changes');
  const script = turn.getByTestId("step-script");
  await expect(script).toContainText("collect_changes.py");
  await expect(script).toContainText("exit 0");
  await expect(script.getByTestId("script-stdout")).toContainText("feature: Skills can be imported from a .zip archive");
  await expect(page.getByTestId("step-sandbox").first()).toBeVisible();
  // Side panel: the exact listing of the turn, what it activated, and the meter per model call.
  await expect(page.getByTestId("side-listing")).toContainText("<available_skills>");
  await expect(page.getByTestId("active-skills")).toContainText("release-notes");
  await expect(page.getByTestId("meter-call")).toHaveCount(3);

  // Replay the same request in prompt mode: the comparison shows both.
  await turn.getByLabel("Replay mode for turn 1").selectOption("prompt");
  await turn.getByRole("button", { name: "Replay in mode…" }).click();
  await expect(page.getByTestId("turn")).toHaveCount(2);
  await expect(page.getByTestId("turn").nth(1).getByTestId("answer")).toContainText("by reading its SKILL.md", { timeout: 30_000 });
  await expect(page.getByTestId("mode-comparison")).toBeVisible();
  await expect(page.getByTestId("compare-tool")).toBeVisible();
  await expect(page.getByTestId("compare-prompt")).toBeVisible();

  // A call outside the skill's allowed-tools shows as refused, with the rule.
  await send(page, "inspect the environment");
  const third = page.getByTestId("turn").nth(2);
  await expect(third.getByTestId("answer")).toBeVisible({ timeout: 30_000 });
  await expect(third.getByTestId("step-activation")).toContainText("Activating 'env-inspector' skill...");
  const refused = third.getByTestId("step-refused");
  await expect(refused).toContainText("Refused: bash");
  await expect(refused).toContainText("allowed-tools: Read");

  // A plugin skill (data-pack) is found and activated the same way.
  await send(page, "summarize data/sales.csv");
  const fourth = page.getByTestId("turn").nth(3);
  await expect(fourth.getByTestId("answer")).toBeVisible({ timeout: 30_000 });
  await expect(fourth.getByTestId("step-activation")).toContainText("Activating 'csv-insights' skill...");
  await expect(fourth.getByTestId("step-activation")).toContainText("layer: plugin");

  // Reloaded, the session shows its history with every step.
  await page.reload();
  await expect(page.getByTestId("turn")).toHaveCount(4);
  await expect(page.getByTestId("turn").first().getByTestId("script-stdout")).toContainText("feature:");
  await expect(page.getByTestId("turn").nth(2).getByTestId("step-refused")).toBeVisible();
  // A history turn's listing comes without its text and names: opening it reads them, "Loading…" meanwhile.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const asked: string[] = [];
  await page.route("**/api/trpc/**", async (route) => {
    const url = route.request().url();
    if (url.includes("playground.toolOutput")) asked.push(url);
    if (!url.includes("playground.turnListing")) return route.fallback();
    asked.push(url);
    await held;
    await route.fallback();
  });
  const firstListing = page.getByTestId("turn").first().getByTestId("step-listing");
  await firstListing.locator("summary").first().click();
  await expect(firstListing).toContainText("Loading…");
  expect(asked.some((u) => u.includes(encodeURIComponent('"turn":1')))).toBe(true);
  release();
  await expect(firstListing.getByTestId("listing-text")).toContainText('"release-notes": Draft release notes');
  const described = firstListing.getByTestId("listing-described");
  await described.locator("summary").click();
  await expect(described).toContainText("release-notes");
  // So is a tool call's long output (the SKILL.md the skill tool returned): it is read once the call is opened.
  const skillCall = page.getByTestId("turn").first().getByTestId("step-tool").filter({ hasText: "Tool: skill" });
  expect(asked.some((u) => u.includes("playground.toolOutput"))).toBe(false);
  await skillCall.locator("summary").click();
  await expect(skillCall).toContainText("Collect the changes: run");
  expect(asked.some((u) => u.includes("playground.toolOutput"))).toBe(true);
  await page.unroute("**/api/trpc/**");
  // The side panel shows the listing of the turn in focus, read for that turn.
  await page.getByTestId("turn").nth(1).getByRole("button", { name: "Inspect" }).click();
  await expect(page.getByTestId("side-listing")).toContainText("<location>");
  const sessionId = new URL(page.url()).searchParams.get("session")!;
  await expect(page.getByTestId("audit-link")).toHaveAttribute("href", `/audit?session=${sessionId}`);

  // Rename and delete.
  const item = page.getByTestId("session-item").filter({ hasText: "Offline release notes" });
  await item.getByRole("button", { name: "Rename" }).click();
  // While editing, the title is an input's value (no longer the item's text).
  const editor = page.getByTestId("session-item").filter({ has: page.getByLabel("Session title") });
  await editor.getByLabel("Session title").fill("Renamed offline session");
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("session-title")).toHaveText("Renamed offline session");
  page.once("dialog", (d) => void d.accept());
  await page.getByTestId("session-item").filter({ hasText: "Renamed offline session" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("session-item").filter({ hasText: "Renamed offline session" })).toHaveCount(0);
  expect(fs.existsSync(path.join(E2E_HOME, "scratch", sessionId))).toBe(false);
});

test("scripted OpenAI-compatible server: the model's tool calls activate the skill, run its script and get refused outside allowed-tools", async ({ page }) => {
  await signInAsAdmin(page);
  await startSession(page, "Scripted model", "OpenAI-compatible");
  await expect(page.getByTestId("session-settings")).toContainText("openai/scripted-e2e");
  const before = received.length;
  await send(page, "draft the release notes");
  const turn = page.getByTestId("turn").last();
  await expect(turn.getByTestId("answer")).toContainText(SCRIPTED_ANSWER, { timeout: 30_000 });
  await expect(turn.getByTestId("step-thought")).toContainText(REASON);
  await expect(turn.getByTestId("step-activation")).toContainText("Activating 'release-notes' skill...");
  await expect(turn.getByTestId("step-script").getByTestId("script-stdout")).toContainText("fix: Saving a skill no longer drops a trailing newline");
  await expect(turn.getByTestId("step-refused")).toContainText("Refused: bash");
  await expect(turn.getByTestId("step-refused")).toContainText("allowed-tools: Read, Bash(python3 scripts/*), Bash(bash scripts/*)");
  await expect(page.getByTestId("meter-call")).toHaveCount(4);
  expect(received.length - before).toBe(4);
  expect(received.at(-1)!.model).toBe("scripted-e2e");
  expect(received.at(-1)!.tools).toContain("skill");
});

test("a running turn streams its steps live and can be stopped; the session stays usable", async ({ page }) => {
  await signInAsAdmin(page);
  await startSession(page, "Long turn", "OpenAI-compatible");
  await send(page, "please take your time");
  const turn = page.getByTestId("turn").last();
  // Live: the run has started (listing step streamed) while the model is still thinking.
  await expect(turn.getByTestId("step-listing")).toBeVisible();
  await expect(turn.getByTestId("answer")).toContainText("Working…");
  await expect(page.getByTestId("session-item").filter({ hasText: "Long turn" })).toContainText("running");
  // A second send while it runs is refused by the server.
  const sessionId = new URL(page.url()).searchParams.get("session")!;
  const again = await page.request.post("/api/trpc/playground.send", { data: { json: { sessionId, request: "again" } } });
  expect(again.status()).toBe(409);
  expect(await again.text()).toContain("already running");
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(turn.getByTestId("answer-failed")).toContainText("Stopped before an answer", { timeout: 10_000 });
  await expect(turn.getByTestId("step-finished")).toContainText("aborted");
  // Usable again.
  await send(page, "draft the release notes");
  await expect(page.getByTestId("turn").last().getByTestId("answer")).toContainText(SCRIPTED_ANSWER, { timeout: 30_000 });
  if (process.env.PG_SCREENSHOT) await page.screenshot({ path: process.env.PG_SCREENSHOT, fullPage: true });
});

test("a turn another server runs shows as running there, refuses a Send here, and its answer shows once it ends", async ({ page }) => {
  await signInAsAdmin(page);
  await startSession(page, "Turn elsewhere");
  const sessionId = new URL(page.url()).searchParams.get("session")!;
  const follows: string[] = [];
  page.on("request", (r) => void (r.url().includes("playground.follow") && follows.push(r.url())));
  // Server B's rows, as it writes them: the request, then the claim it renews while its turn runs.
  const db = new Database(path.join(E2E_HOME, "console.db"));
  db.pragma("busy_timeout = 5000");
  const turn = page.getByTestId("turn").last();
  try {
    const now = Date.now();
    const message = db.prepare("INSERT INTO playground_messages (session_id, turn, role, content, events, created_at) VALUES (?, 1, ?, ?, ?, ?)");
    message.run(sessionId, "user", "a request sent through server B", JSON.stringify({ mode: "tool" }), now);
    db.prepare("INSERT INTO turn_claims (session_id, claim, turn, mode, server, started_at, lease_until) VALUES (?, 'claim-of-b', 1, 'tool', 'server-b:1', ?, ?)").run(sessionId, now, now + 600_000);
    await page.reload();
    await expect(turn.getByTestId("request")).toHaveText("a request sent through server B");
    await expect(turn.getByTestId("running-elsewhere")).toContainText("Running on another server");
    await expect(page.getByTestId("session-item").filter({ hasText: "Turn elsewhere" })).toContainText("running");
    await expect(page.getByRole("button", { name: "Stop", exact: true })).toBeEnabled();
    const again = await page.request.post("/api/trpc/playground.send", { data: { json: { sessionId, request: "again" } } });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain("already running");
    // B's turn ends: its answer is stored, then its claim removed.
    const record = { mode: "tool", provider: "offline", model: "offline-rules-1", reason: "answered", events: [] };
    message.run(sessionId, "assistant", "Answered on server B.", JSON.stringify(record), Date.now());
    db.prepare("DELETE FROM turn_claims WHERE session_id = ?").run(sessionId);
  } finally {
    db.close();
  }
  await expect(turn.getByTestId("answer")).toHaveText("Answered on server B.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  // One follow for the whole turn: the page waited on it, it did not ask again and again.
  expect(follows).toHaveLength(1);
});

test("a turn whose provider fails says so, and the session stays usable", async ({ page }) => {
  await signInAsAdmin(page);
  await startSession(page, "Outage", "OpenAI-compatible");
  await send(page, "fail on purpose");
  const failed = page.getByTestId("turn").last();
  await expect(failed.getByTestId("answer-failed")).toContainText("The turn failed", { timeout: 30_000 });
  await expect(failed.getByTestId("step-error")).toContainText("scripted outage");
  await send(page, "draft the release notes");
  await expect(page.getByTestId("turn").last().getByTestId("answer")).toContainText(SCRIPTED_ANSWER, { timeout: 30_000 });
});

test("a viewer can read the playground but cannot start a session, in the page or by a direct call", async ({ page }) => {
  await signInAsAdmin(page);
  const email = uniqueEmail("pg-viewer");
  await createUserViaUi(page, email, "viewer", "viewer-password-1");
  await signOut(page);
  await signIn(page, email, "viewer-password-1");
  await page.goto("/playground");
  await expect(page.getByTestId("viewer-notice")).toContainText("cannot start sessions");
  await expect(page.getByRole("form", { name: "New session" })).toHaveCount(0);
  const res = await page.request.post("/api/trpc/playground.create", { data: { json: { title: "sneaky" } } });
  expect(res.status()).toBe(403);
  expect(await res.text()).toContain("FORBIDDEN");
  const list = await page.request.get("/api/trpc/playground.list");
  expect(list.ok()).toBe(true);
});
