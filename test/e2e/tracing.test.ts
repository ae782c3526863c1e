/**
 * @module e2e/tracing.test: a real gateway with tracing pointed at an in-process OTLP/HTTP receiver; one elicitation round
 * trip (restart_service of the incident desk over Streamable HTTP, answered by an SDK host) and the span tree it leaves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { type HeaderRecorder, startHeaderRecorder } from './harness/header-recorder.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './harness/otlp-receiver.js';
import { connectSdkHttp } from './harness/sdk-host.js';
import { type HttpUpstream, startIncidentDeskHttp } from './harness/upstreams.js';

const APPROVE = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } as const;
const SERVER = 2;
const CLIENT = 3;

describe('traces of one elicitation round trip', () => {
  let receiver: OtlpReceiver;
  let desk: HttpUpstream;
  let recorder: HeaderRecorder;
  let gateway: RunningGateway | undefined;

  before(async () => {
    receiver = await startOtlpReceiver();
    desk = await startIncidentDeskHttp();
    recorder = await startHeaderRecorder(desk.url);
  });
  after(async () => {
    await gateway?.stop();
    await recorder?.close();
    await desk?.stop();
    await receiver?.close();
  });

  test('host request, upstream request, question and store writes in one trace; the upstream gets the upstream span as its parent', async () => {
    gateway = await startGateway({
      upstreams: { desk: { url: recorder.url } },
      tracing: { enabled: true, endpoint: receiver.url, serviceName: 'switchboard-e2e' },
    });
    const host = await connectSdkHttp(gateway.url, { elicitation: { form: {} } }, { elicit: () => APPROVE });
    const result = (await host.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } })) as { isError?: boolean };
    assert.notEqual(result.isError, true, JSON.stringify(result));
    await host.close();
    await gateway.stop(); // flushes the spans
    gateway = undefined;
    assert.deepEqual(receiver.rejected, []);

    const spans = receiver.spans;
    const named = (name: string): ReceivedSpan => {
      const found = spans.filter((span) => span.name === name);
      assert.equal(found.length, 1, `one span ${name} among ${spans.map((s) => s.name).join(', ')}`);
      return found[0] as ReceivedSpan;
    };
    const calls = spans.filter((span) => span.name === 'tools/call restart_service');
    const hostSpan = calls.find((span) => span.kind === SERVER) as ReceivedSpan;
    const upstreamSpan = calls.find((span) => span.kind === CLIENT) as ReceivedSpan;
    assert.ok(hostSpan && upstreamSpan && calls.length === 2, spans.map((s) => `${s.name}/${s.kind}`).join(', '));
    const question = named('elicitation/create desk');

    // The host's request: a server span, the root of its trace.
    assert.equal(hostSpan.parentSpanId, undefined);
    assert.equal(hostSpan.service, 'switchboard-e2e');
    assert.equal(hostSpan.attributes['mcp.method.name'], 'tools/call');
    assert.equal(hostSpan.attributes['gen_ai.tool.name'], 'restart_service');
    assert.equal(typeof hostSpan.attributes['mcp.session.id'], 'string');

    // The upstream request: its child, in the same trace.
    assert.equal(upstreamSpan.traceId, hostSpan.traceId);
    assert.equal(upstreamSpan.parentSpanId, hostSpan.spanId);
    assert.equal(upstreamSpan.attributes['switchboard.upstream'], 'desk');
    assert.equal(upstreamSpan.attributes['gen_ai.tool.name'], 'restart_service');

    // The question: under the upstream request, delivered to the host session, answered by it.
    assert.equal(question.traceId, hostSpan.traceId);
    assert.equal(question.parentSpanId, upstreamSpan.spanId);
    assert.deepEqual(question.events.map((event) => event.name), ['question.delivered', 'question.answered']);
    assert.equal(question.events[0]?.attributes['switchboard.question.delivered_to'], 'host');
    assert.equal(question.events[0]?.attributes['mcp.session.id'], hostSpan.attributes['mcp.session.id']);
    assert.equal(question.attributes['switchboard.question.answered_by'], `host:${String(hostSpan.attributes['mcp.session.id'])}`);
    assert.equal(question.attributes['switchboard.question.state'], 'answered');

    // Its store writes: a span each, inside the question's span.
    const writes = spans.filter((span) => span.attributes['db.collection.name'] === 'question' && span.attributes['switchboard.record.id'] === question.attributes['switchboard.question.id']);
    assert.deepEqual(writes.map((span) => span.name).sort(), ['question create', 'question transition']);
    for (const write of writes) {
      assert.equal(write.parentSpanId, question.spanId, write.name);
      assert.equal(write.attributes['db.system.name'], 'memory');
    }

    // The upstream was sent the upstream span's context as a traceparent header on the tools/call POST.
    const at = recorder.bodies.findIndex((body) => body.includes('"tools/call"'));
    assert.ok(at >= 0, 'the tools/call reached the upstream');
    assert.equal(recorder.requests[at]?.['traceparent'], `00-${upstreamSpan.traceId}-${upstreamSpan.spanId}-01`);
  });
});
