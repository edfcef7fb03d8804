import { Injectable } from '@nestjs/common';
import { MetricsService } from '@cairn/observability';
import { Counter, Histogram } from 'prom-client';

export type ToolOutcome = 'success' | 'tool_error' | 'invalid_arguments' | 'denied' | 'internal_error';

/** `cairn_mcp_tool_calls_total{tool,outcome}` and `cairn_mcp_tool_duration_seconds{tool}` (DESIGN §9). */
@Injectable()
export class ToolMetrics {
  readonly calls: Counter<'tool' | 'outcome'>;
  readonly duration: Histogram<'tool'>;

  constructor(metrics: MetricsService) {
    this.calls = new Counter({
      name: 'cairn_mcp_tool_calls_total',
      help: 'MCP tool calls by tool and outcome',
      labelNames: ['tool', 'outcome'],
      registers: [metrics.registry],
    });
    this.duration = new Histogram({
      name: 'cairn_mcp_tool_duration_seconds',
      help: 'MCP tool call duration by tool, from validated arguments to answer',
      labelNames: ['tool'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [metrics.registry],
    });
  }
}
