// The shape of an OTLP export request, as far as the receiver reads it: both encodings arrive here as OTLP/JSON's
// plain objects (otlp-proto.ts converts protobuf). Anything else in them is ignored; a body that is not an export
// request of this shape is a 400. int64 fields may be numbers or decimal strings (OTLP/JSON allows both).
import { z } from "zod";

const int64 = z.union([z.number().int("an integer"), z.string().regex(/^-?\d{1,20}$/, "an integer")]);

export type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number | string;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
};
export type KeyValue = { key: string; value?: AnyValue };

const anyValue: z.ZodType<AnyValue> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    boolValue: z.boolean().optional(),
    intValue: int64.optional(),
    // OTLP/JSON writes NaN and infinities as strings.
    doubleValue: z.union([z.number(), z.string()]).optional(),
    arrayValue: z.object({ values: z.array(anyValue).optional() }).optional(),
    kvlistValue: z.object({ values: z.array(keyValue).optional() }).optional(),
    bytesValue: z.string().optional(),
  }),
);
const keyValue: z.ZodType<KeyValue> = z.lazy(() => z.object({ key: z.string(), value: anyValue.optional() }));
const attributes = z.array(keyValue).optional();
const resource = z.object({ attributes }).optional();
const scope = z.object({ name: z.string().optional(), version: z.string().optional() }).optional();

type Optional<K extends string, T extends z.ZodType> = { [k in K]: z.ZodOptional<T> };

/** Every OTLP export request nests the same way, each level optional: resources, their scopes, the records. */
function exportRequest<R extends string, S extends string, I extends string, T extends z.ZodType>(resources: R, scopes: S, items: I, item: T) {
  const inScope = z.object({ scope, ...({ [items]: z.array(item).optional() } as Optional<I, z.ZodArray<T>>) });
  const inResource = z.object({ resource, ...({ [scopes]: z.array(inScope).optional() } as Optional<S, z.ZodArray<typeof inScope>>) });
  return z.object({ [resources]: z.array(inResource).optional() } as Optional<R, z.ZodArray<typeof inResource>>);
}

export const logRecordSchema = z.object({
  timeUnixNano: int64.optional(),
  observedTimeUnixNano: int64.optional(),
  severityText: z.string().optional(),
  body: anyValue.optional(),
  attributes,
  eventName: z.string().optional(),
});
export type LogRecord = z.output<typeof logRecordSchema>;

export const logsRequestSchema = exportRequest("resourceLogs", "scopeLogs", "logRecords", logRecordSchema);
export type LogsRequest = z.output<typeof logsRequestSchema>;

export const numberPointSchema = z.object({
  attributes,
  startTimeUnixNano: int64.optional(),
  timeUnixNano: int64.optional(),
  asInt: int64.optional(),
  asDouble: z.union([z.number(), z.string()]).optional(),
});
export type NumberPoint = z.output<typeof numberPointSchema>;

const points = z.object({ dataPoints: z.array(z.object({ attributes }).loose()).optional() }).loose();

export const metricSchema = z.object({
  name: z.string(),
  sum: z
    .object({ dataPoints: z.array(numberPointSchema).optional(), aggregationTemporality: z.union([z.number(), z.string()]).optional(), isMonotonic: z.boolean().optional() })
    .optional(),
  gauge: points.optional(),
  histogram: points.optional(),
  exponentialHistogram: points.optional(),
  summary: points.optional(),
});
export type Metric = z.output<typeof metricSchema>;

export const metricsRequestSchema = exportRequest("resourceMetrics", "scopeMetrics", "metrics", metricSchema);
export type MetricsRequest = z.output<typeof metricsRequestSchema>;
