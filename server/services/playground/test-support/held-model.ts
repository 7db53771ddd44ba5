// A scripted model that holds every answer until the test releases it: a turn or a trigger run stays in flight for as
// long as a test needs (a stop asked, or a claim seen, from another server). Released and closed after each test.
import { afterEach } from "vitest";
import { scriptedOpenAiServer, type ScriptedServer } from "../../../runtime/agent/test-support/agent";

export function useHeldModel() {
  let model: (ScriptedServer & { release(): void }) | undefined;
  afterEach(async () => {
    model?.release();
    await model?.close();
    model = undefined;
  });
  return {
    /** Starts the model; the environment of a console using it, turns in this thread (no turn worker): server A is this process. */
    async start(): Promise<Record<string, string>> {
      let release = () => {};
      const hold = new Promise<void>((r) => (release = r));
      const server = await scriptedOpenAiServer([{ content: "an answer" }], { hold });
      model = { ...server, release };
      return { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_TURN_WORKER: "0" };
    },
    /** Lets every held answer go. */
    release: () => model?.release(),
  };
}
