// Monaco from the local monaco-editor package (STACK.md A3): core API + features + the languages skills use,
// workers bundled from node_modules, and @monaco-editor/react told to use this instance instead of a CDN.
// Imported only from modules loaded with next/dynamic({ ssr: false }): Monaco must never run on the server.
import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/register.all";
import "monaco-editor/languages/definitions/markdown/register";
import "monaco-editor/languages/definitions/yaml/register";
import "monaco-editor/languages/definitions/python/register";
import "monaco-editor/languages/definitions/shell/register";
import "monaco-editor/languages/definitions/javascript/register";
import "monaco-editor/languages/features/json/register";

type WorkerEnv = { MonacoEnvironment?: { getWorker: (id: string, label: string) => Worker } };

(self as unknown as WorkerEnv).MonacoEnvironment = {
  getWorker: (_id: string, label: string) =>
    label === "json"
      ? new Worker(new URL("monaco-editor/languages/features/json/json.worker.js", import.meta.url), { type: "module" })
      : new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
};

loader.config({ monaco });

export { monaco };
export type Monaco = typeof monaco;
