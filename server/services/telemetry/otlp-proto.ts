// OTLP's protobuf encoding, decoded with protobufjs. The messages below are the parts of the official
// opentelemetry-proto definitions (common, resource, logs, metrics and their collector services; Apache-2.0)
// that the receiver reads, with the official field numbers; fields not declared here are skipped by the
// decoder, as protobuf intends. Decoded messages are turned into the same plain shape as OTLP/JSON, so one
// zod schema (schemas.ts) checks both encodings.
import protobuf from "protobufjs";

// Logs and metrics travel in the same envelope: a request of resource groups of scope groups of items, and a
// response whose partial success counts what was rejected. Only the names differ.
const envelope = (signal: "Logs" | "Metrics", items: string, rejected: string) => {
  const field = signal.toLowerCase();
  return `
message Export${signal}ServiceRequest { repeated Resource${signal} resource_${field} = 1; }
message Resource${signal} { Resource resource = 1; repeated Scope${signal} scope_${field} = 2; string schema_url = 3; }
message Scope${signal} { InstrumentationScope scope = 1; repeated ${items} = 2; string schema_url = 3; }
message Export${signal}ServiceResponse { Export${signal}PartialSuccess partial_success = 1; }
message Export${signal}PartialSuccess { int64 ${rejected} = 1; string error_message = 2; }`;
};

const PROTO = `
syntax = "proto3";
package opentelemetry.proto;

message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }

message LogRecord {
  fixed64 time_unix_nano = 1;
  fixed64 observed_time_unix_nano = 11;
  int32 severity_number = 2;
  string severity_text = 3;
  AnyValue body = 5;
  repeated KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7;
  fixed32 flags = 8;
  bytes trace_id = 9;
  bytes span_id = 10;
  string event_name = 12;
}

message Metric {
  string name = 1; string description = 2; string unit = 3;
  oneof data { Gauge gauge = 5; Sum sum = 7; Histogram histogram = 9; ExponentialHistogram exponential_histogram = 10; Summary summary = 11; }
}
message Gauge { repeated NumberDataPoint data_points = 1; }
message Sum { repeated NumberDataPoint data_points = 1; int32 aggregation_temporality = 2; bool is_monotonic = 3; }
message Histogram { repeated CountedPoint data_points = 1; int32 aggregation_temporality = 2; }
message ExponentialHistogram { repeated PointAttributes1 data_points = 1; int32 aggregation_temporality = 2; }
message Summary { repeated CountedPoint data_points = 1; }
message NumberDataPoint {
  repeated KeyValue attributes = 7;
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  oneof value { double as_double = 4; sfixed64 as_int = 6; }
  uint32 flags = 8;
}
// Histogram and summary points: only counted (the receiver keeps no histogram), so only their attributes.
message CountedPoint { repeated KeyValue attributes = 9; }
message PointAttributes1 { repeated KeyValue attributes = 1; }

${envelope("Logs", "LogRecord log_records", "rejected_log_records")}
${envelope("Metrics", "Metric metrics", "rejected_data_points")}

// google.rpc.Status: OTLP/HTTP's error body in the protobuf encoding.
message Status { int32 code = 1; string message = 2; }
`;

const root = protobuf.parse(PROTO, { keepCase: false }).root;
const type = (name: string) => root.lookupType(`opentelemetry.proto.${name}`);

export type Signal = "logs" | "metrics";

const REQUEST: Record<Signal, string> = { logs: "ExportLogsServiceRequest", metrics: "ExportMetricsServiceRequest" };
const RESPONSE: Record<Signal, string> = { logs: "ExportLogsServiceResponse", metrics: "ExportMetricsServiceResponse" };

/** Decodes a protobuf export request into OTLP/JSON's plain shape; throws on bytes that are not one. */
export function decodeProtobuf(signal: Signal, bytes: Uint8Array): unknown {
  const t = type(REQUEST[signal]);
  const msg = t.decode(bytes);
  // int64 as decimal strings (as OTLP/JSON allows), bytes as hex like OTLP/JSON's trace ids.
  return t.toObject(msg, { longs: String, enums: Number, bytes: String, defaults: false, arrays: true, oneofs: false });
}

/** An export response in protobuf, with partialSuccess when something was rejected. */
export function encodeResponse(signal: Signal, partialSuccess: Record<string, unknown> | undefined): Uint8Array {
  const t = type(RESPONSE[signal]);
  return t.encode(t.fromObject(partialSuccess ? { partialSuccess } : {})).finish();
}

/** A google.rpc.Status error body. */
export function encodeStatus(code: number, message: string): Uint8Array {
  const t = type("Status");
  return t.encode(t.fromObject({ code, message })).finish();
}
