/**
 * The gateway's OpenTelemetry metrics with the real OpenTelemetry
 * SDK (sdk-metrics, in-memory exporter) registered as the global meter
 * provider: calls through a gateway in front of the candor fixture upstream,
 * by a real SDK v2 client, are counted per server, tool and decision, with
 * their latency; the result guards' findings, for calls by a real SDK v1 client,
 * are counted by kind, rule, action, server and tool, never with what was found.
 */

import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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
const leaky = path.join(import.meta.dirname, '../fixtures/gateway/results-upstream.mjs');
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
const provider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(provider);

afterAll(async () => {
  await provider.shutdown();
  metrics.disable();
});

/** Close the client, the listener and the gateway, then read every metric exported so far. */
async function closeAndRead(...open: Array<{ close(): Promise<unknown> }>) {
  for (const item of open) await item.close();
  await reader.forceFlush();
  return exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
}

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
  const all = await closeAndRead(client, listener, gateway);
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

test('each finding in a result is counted by kind, rule, action, server and tool, never with the secret', async () => {
  const privateKey = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  const gateway = await createGateway({
    logger: { error() {}, warn() {}, info() {}, debug() {} },
    servers: {
      files: {
        command: process.execPath,
        args: [leaky],
        env: { RESULTS_SECRETS: JSON.stringify({ privateKey }) },
        results: { tools: { read_note: { injection: 'block' } } },
      },
    },
    policy: { preset: 'yolo' },
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  const client = new ClientV1({ name: 'metrics-v1', version: '1.0.0' });
  await client.connect(new TransportV1(new URL(listener.url)));
  await client.callTool({ name: 'files__read_key', arguments: {} });
  await client.callTool({ name: 'files__read_key', arguments: {} });
  await client.callTool({ name: 'files__fetch_page', arguments: { url: 'https://example.com' } });
  await client.callTool({ name: 'files__read_note', arguments: {} });
  await client.callTool({ name: 'files__weather', arguments: {} });
  const all = await closeAndRead(client, listener, gateway);
  const findings = all.find((m) => m.descriptor.name === 'candor.gateway.result.findings');
  const points: Array<Record<string, unknown>> = (findings?.dataPoints ?? []).map((p) => ({
    ...(p.attributes as Record<string, unknown>),
    value: p.value,
  }));
  expect(points).toEqual(
    expect.arrayContaining([
      {
        kind: 'secret',
        rule: '@secretlint/secretlint-rule-privatekey',
        action: 'redact',
        server: 'files',
        tool: 'files__read_key',
        value: 2,
      },
      {
        kind: 'injection',
        rule: 'description-steering',
        action: 'annotate',
        server: 'files',
        tool: 'files__fetch_page',
        value: 1,
      },
      {
        kind: 'injection',
        rule: 'description-steering',
        action: 'block',
        server: 'files',
        tool: 'files__read_note',
        value: 1,
      },
    ]),
  );
  expect(points.filter((p) => p.tool === 'files__weather')).toEqual([]);
  expect(JSON.stringify(findings)).not.toContain(privateKey.split('\n')[5]);
}, 60_000);
