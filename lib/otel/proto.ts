/**
 * The OTLP trace messages this server reads and writes, described for protobufjs's reflection
 * (written from opentelemetry-proto's trace.proto, common.proto, resource.proto and
 * trace_service.proto; only the fields Backtrack reads or writes). Field numbers are the wire
 * contract: they must match the .proto files exactly. Fields left out are skipped when decoding.
 */
import protobuf from "protobufjs/light.js";

const KEY_VALUE = { fields: { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } } };

const DESCRIPTOR = {
  nested: {
    otlp: {
      nested: {
        AnyValue: {
          oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
          fields: {
            stringValue: { type: "string", id: 1 },
            boolValue: { type: "bool", id: 2 },
            intValue: { type: "int64", id: 3 },
            doubleValue: { type: "double", id: 4 },
            arrayValue: { type: "ArrayValue", id: 5 },
            kvlistValue: { type: "KeyValueList", id: 6 },
            bytesValue: { type: "bytes", id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: "repeated", type: "AnyValue", id: 1 } } },
        KeyValueList: { fields: { values: { rule: "repeated", type: "KeyValue", id: 1 } } },
        KeyValue: KEY_VALUE,
        InstrumentationScope: { fields: { name: { type: "string", id: 1 }, version: { type: "string", id: 2 } } },
        Resource: { fields: { attributes: { rule: "repeated", type: "KeyValue", id: 1 } } },
        Status: { fields: { message: { type: "string", id: 2 }, code: { type: "int32", id: 3 } } },
        Event: {
          fields: { timeUnixNano: { type: "fixed64", id: 1 }, name: { type: "string", id: 2 }, attributes: { rule: "repeated", type: "KeyValue", id: 3 } },
        },
        Span: {
          fields: {
            traceId: { type: "bytes", id: 1 },
            spanId: { type: "bytes", id: 2 },
            parentSpanId: { type: "bytes", id: 4 },
            name: { type: "string", id: 5 },
            kind: { type: "int32", id: 6 },
            startTimeUnixNano: { type: "fixed64", id: 7 },
            endTimeUnixNano: { type: "fixed64", id: 8 },
            attributes: { rule: "repeated", type: "KeyValue", id: 9 },
            events: { rule: "repeated", type: "Event", id: 11 },
            status: { type: "Status", id: 15 },
          },
        },
        ScopeSpans: { fields: { scope: { type: "InstrumentationScope", id: 1 }, spans: { rule: "repeated", type: "Span", id: 2 } } },
        ResourceSpans: { fields: { resource: { type: "Resource", id: 1 }, scopeSpans: { rule: "repeated", type: "ScopeSpans", id: 2 } } },
        ExportTraceServiceRequest: { fields: { resourceSpans: { rule: "repeated", type: "ResourceSpans", id: 1 } } },
        ExportTracePartialSuccess: { fields: { rejectedSpans: { type: "int64", id: 1 }, errorMessage: { type: "string", id: 2 } } },
        ExportTraceServiceResponse: { fields: { partialSuccess: { type: "ExportTracePartialSuccess", id: 1 } } },
        /** google.rpc.Status, the body of an OTLP/HTTP error response. */
        RpcStatus: { fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } } },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(DESCRIPTOR);

export const ExportTraceServiceRequest = root.lookupType("otlp.ExportTraceServiceRequest");
export const ExportTraceServiceResponse = root.lookupType("otlp.ExportTraceServiceResponse");
export const RpcStatus = root.lookupType("otlp.RpcStatus");

/** A 64-bit integer as protobufjs hands it back: a number, or a Long-like object when `long` is installed. */
export type Int64 = number | { toString(): string; toNumber(): number };
