/**
 * Hand-built OTLP/JSON payloads in the GenAI semantic conventions: an `invoke_agent` planner whose
 * `execute_tool` call runs a nested `invoke_agent` researcher. Times are fixed (1 ms apart), so
 * the start order is known exactly.
 */
const TRACE = "0af7651916cd43dd8448eb211c80319c";
const BASE = 1_796_000_000_000_000_000n;

export interface Span {
  spanId: string;
  parentSpanId?: string;
  name: string;
  start: number;
  end: number;
  attributes: Record<string, string | number>;
  status?: number;
}

function value(raw: string | number) {
  return typeof raw === "number" ? { intValue: String(raw) } : { stringValue: raw };
}

export function payload(spans: Span[], traceId = TRACE): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "planner-service" } }] },
        scopeSpans: [
          {
            scope: { name: "tests" },
            spans: spans.map((span) => ({
              traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? "",
              name: span.name,
              kind: 1,
              startTimeUnixNano: String(BASE + BigInt(span.start) * 1_000_000n),
              endTimeUnixNano: String(BASE + BigInt(span.end) * 1_000_000n),
              attributes: Object.entries(span.attributes).map(([key, raw]) => ({ key, value: value(raw) })),
              status: { code: span.status ?? 1 },
            })),
          },
        ],
      },
    ],
  });
}

const chatOut = (parts: unknown[]) => JSON.stringify([{ role: "assistant", parts }]);

/** The planner trace, spans in start order. */
export function plannerTrace(runId = "planner-run"): Span[] {
  return [
    {
      spanId: "a000000000000001",
      name: "invoke_agent planner",
      start: 0,
      end: 100,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "planner",
        "backtrack.run_id": runId,
        "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Plan a trip to Lisbon" }] }]),
      },
    },
    {
      spanId: "a000000000000002",
      parentSpanId: "a000000000000001",
      name: "chat gpt-test",
      start: 10,
      end: 20,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-test",
        "gen_ai.usage.input_tokens": 30,
        "gen_ai.usage.output_tokens": 5,
        "gen_ai.output.messages": chatOut([{ type: "tool_call", id: "t1", name: "research", arguments: { topic: "Lisbon" } }]),
      },
    },
    {
      spanId: "a000000000000003",
      parentSpanId: "a000000000000001",
      name: "execute_tool research",
      start: 30,
      end: 70,
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "research",
        "gen_ai.tool.call.id": "t1",
        "gen_ai.tool.call.arguments": JSON.stringify({ topic: "Lisbon" }),
        "gen_ai.tool.call.result": JSON.stringify({ notes: "trams" }),
      },
    },
    {
      spanId: "a000000000000004",
      parentSpanId: "a000000000000003",
      name: "invoke_agent researcher",
      start: 35,
      end: 65,
      attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "researcher" },
    },
    {
      spanId: "a000000000000005",
      parentSpanId: "a000000000000004",
      name: "chat gpt-test",
      start: 40,
      end: 60,
      attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-test", "gen_ai.output.messages": chatOut([{ type: "text", content: "Lisbon has trams." }]) },
    },
    {
      spanId: "a000000000000006",
      parentSpanId: "a000000000000001",
      name: "chat gpt-test",
      start: 80,
      end: 90,
      attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-test", "gen_ai.output.messages": chatOut([{ type: "text", content: "Take the tram." }]) },
    },
    { spanId: "a000000000000007", parentSpanId: "a000000000000006", name: "POST /v1/chat", start: 81, end: 89, attributes: { "http.method": "POST" } },
  ];
}
