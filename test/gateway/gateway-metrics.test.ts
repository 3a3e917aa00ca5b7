/**
 * The gateway's OpenTelemetry metrics with the real OpenTelemetry
 * SDK (sdk-metrics, in-memory exporter) registered as the global meter
 * provider: calls through a gateway in front of the candor fixture upstream,
 * by a real SDK v2 client, are counted per server, tool and decision, with
 * their latency.
 */

import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { afterAll, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';

const fixture = path.join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
const provider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(provider);

afterAll(async () => {
  await provider.shutdown();
  metrics.disable();
});

test('calls, decisions and latency per server and tool reach the registered meter provider', async () => {
  const gateway = await createGateway({
    logger: { error() {}, warn() {}, info() {}, debug() {} },
    servers: { notes: { command: process.execPath, args: [fixture] } },
    policy: { preset: 'yolo', rules: [{ decision: 'deny', tools: 'notes__count_slowly' }] },
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  const client = new Client({ name: 'metrics', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  await client.callTool({ name: 'notes__read_notes', arguments: {} });
  await client.callTool({ name: 'notes__read_notes', arguments: {} });
  await client.close();
  await listener.close();
  await gateway.close();
  await reader.forceFlush();
  const all = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
  const calls = all.find((m) => m.descriptor.name === 'candor.gateway.calls');
  const point = calls?.dataPoints.find((p) => p.attributes.tool === 'notes__read_notes');
  expect(point?.value).toBe(2);
  expect(point?.attributes).toMatchObject({
    server: 'notes',
    decision: 'allow',
    decided_by: 'preset:yolo',
    outcome: 'ok',
  });
  const duration = all.find((m) => m.descriptor.name === 'candor.gateway.call.duration');
  expect(duration?.descriptor.unit).toBe('ms');
  const histogram = duration?.dataPoints[0]?.value as { count: number; sum: number };
  expect(histogram.count).toBe(2);
  expect(histogram.sum).toBeGreaterThan(0);
}, 60_000);
