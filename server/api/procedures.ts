// A router area as a table: which procedures one role's procedure builder serves, each with its input schema
// (or noInput), grouped by kind. The handler of a procedure is the export of the same name in the handlers
// module, so a router file reads as "role: query names and inputs, mutation names and inputs" instead of the
// same `.input(...).query(handler)` chain once per line. The result keeps every procedure's inferred input
// and output types (RouterOutputs), as if each had been written out by hand.
import type { TRPCMutationProcedure, TRPCProcedureBuilder, TRPCQueryProcedure, inferProcedureBuilderResolverOptions } from "@trpc/server";
import type { z } from "zod";

/** Marks a procedure that takes no input. */
export const noInput = null;

type Input = z.ZodType | typeof noInput;
type AnyBuilder = TRPCProcedureBuilder<any, any, any, any, any, any, any, any, any>;
type Handler = (opts: any) => unknown;

// A table entry is accepted only when its handler exists and takes what the schema parses under the builder's
// context; otherwise the entry's type says why.
type Checked<P extends AnyBuilder, H, T> = {
  [K in keyof T]: K extends keyof H
    ? H[K] extends (opts: { ctx: inferProcedureBuilderResolverOptions<P>["ctx"]; input: InputOut<T[K]>; signal: AbortSignal | undefined }) => unknown
      ? T[K]
      : "the handler does not take this input"
    : "no handler of this name";
};

type InputOut<S> = S extends z.ZodType ? z.output<S> : undefined;
type InputIn<S> = S extends z.ZodType ? z.input<S> : void;
type Def<P, S, Out> =
  P extends TRPCProcedureBuilder<any, infer Meta, any, any, any, any, any, any, infer ErrorShape>
    ? { input: InputIn<S>; output: Awaited<Out>; meta: Meta; errorShape: ErrorShape }
    : never;
type Output<H, K> = K extends keyof H ? (H[K] extends (...args: never[]) => infer R ? R : never) : never;

type Built<P, H, Q, M> = { [K in keyof Q]: TRPCQueryProcedure<Def<P, Q[K], Output<H, K>>> } & {
  [K in keyof M]: TRPCMutationProcedure<Def<P, M[K], Output<H, K>>>;
};

/** The procedures of one role: `procedures(authorProcedure, handlers, { query: { list: ZListInput }, mutation: { … } })`. */
export function procedures<
  P extends AnyBuilder,
  H extends object,
  Q extends Record<string, Input> & Checked<P, H, Q> = {},
  M extends Record<string, Input> & Checked<P, H, M> = {},
>(procedure: P, handlers: H, table: { query?: Q; mutation?: M }): Built<P, H, Q, M> {
  const built: Record<string, unknown> = {};
  const add = (kind: "query" | "mutation", entries: Record<string, Input> = {}) => {
    for (const [name, input] of Object.entries(entries)) {
      const handler = (handlers as Record<string, Handler>)[name] as Handler; // present: Checked says so
      built[name] = (input === noInput ? procedure : procedure.input(input))[kind](handler);
    }
  };
  add("query", table.query);
  add("mutation", table.mutation);
  return built as Built<P, H, Q, M>;
}
