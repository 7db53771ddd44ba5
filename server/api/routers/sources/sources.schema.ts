import { z } from "zod";

// The runtime checks each of these again (name, URL, ref, sub-path); the schema bounds the sizes.
const name = z.string().trim().min(1).max(64);

export const ZListInput = z.object({ remote: z.boolean().default(false) });
export type TListInput = z.infer<typeof ZListInput>;

export const ZAddInput = z.object({
  name,
  url: z.string().trim().min(1).max(2000),
  ref: z.string().trim().max(200).optional(),
  path: z.string().trim().max(500).optional(),
  layer: z.enum(["enterprise", "plugin"]).default("enterprise"),
});
export type TAddInput = z.infer<typeof ZAddInput>;

export const ZUpdateInput = z.object({ name, to: z.string().trim().max(40).optional(), force: z.boolean().default(false) });
export type TUpdateInput = z.infer<typeof ZUpdateInput>;

export const ZNameInput = z.object({ name });
export type TNameInput = z.infer<typeof ZNameInput>;
