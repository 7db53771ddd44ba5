// A real HTTP server on 127.0.0.1 (a free port) built with the console's own server wrapper, serving a
// fetch-style handler the way the console's server answers its routes (server/http/edge.ts): what route-level
// tests run against.
import { answerWith, type FetchHandler } from "../http/edge";
import { createConsoleServer } from "../http/node-server";
import { listenLocal } from "./listen";

export async function serveFetch(handler: FetchHandler): Promise<{ url: string; close: () => Promise<void> }> {
  return listenLocal(createConsoleServer((req, res) => answerWith(handler, req, res)));
}
