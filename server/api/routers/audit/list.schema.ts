import { z } from "zod";
import { AUDIT_PAGE_MAX } from "../../../domain/limits";
import { auditFilterFields, auditFilterSchema, withRangeCheck } from "../../../services/audit/filter";

export const ZAuditFilterInput = auditFilterSchema;
export type TAuditFilterInput = z.output<typeof ZAuditFilterInput>;

export const ZListInput = withRangeCheck(
  auditFilterFields.extend({
    cursor: z.string().regex(/^\d+\.\d+$/, "Not a page cursor.").optional(),
    limit: z.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
  }),
);
export type TListInput = z.output<typeof ZListInput>;

export const ZGetInput = z.object({ id: z.number().int().positive() });
export type TGetInput = z.output<typeof ZGetInput>;
