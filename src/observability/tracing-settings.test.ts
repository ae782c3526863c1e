import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { tracingSettings } from './tracing-settings.js';

describe('tracing settings from the config and the OTEL_* variables', () => {
  test('off by default: nothing in the file, nothing in the environment', () => {
    assert.equal(tracingSettings({}, {}), undefined);
  });

  test('the standard variables turn it on and fill every setting', () => {
    const settings = tracingSettings({}, {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_SERVICE_NAME: 'gw-eu',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.5',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc%20d, x-team = ops',
    });
    assert.deepEqual(settings, { endpoint: 'http://collector:4318/v1/traces', serviceName: 'gw-eu', sampleRatio: 0.5, headers: { 'api-key': 'abc d', 'x-team': 'ops' } });
  });

  test('an endpoint variable alone turns it on; the traces endpoint is taken as it is and wins over the base one', () => {
    const settings = tracingSettings({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom' });
    assert.deepEqual(settings, { endpoint: 'http://b:4318/custom', serviceName: 'switchboard', sampleRatio: 1, headers: {} });
  });

  test('the config wins over the variables where both say something', () => {
    const env = { OTEL_SDK_DISABLED: 'true', OTEL_SERVICE_NAME: 'from-env', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env:4318/v1/traces', OTEL_EXPORTER_OTLP_HEADERS: 'a=1' };
    const settings = tracingSettings({ enabled: true, serviceName: 'from-file', sampleRatio: 0.1, headers: { b: '2' } }, env);
    assert.deepEqual(settings, { endpoint: 'http://env:4318/v1/traces', serviceName: 'from-file', sampleRatio: 0.1, headers: { b: '2' } });
    assert.equal(tracingSettings({ enabled: false }, { OTEL_TRACES_EXPORTER: 'otlp' }), undefined);
  });

  test('OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none keep it off when the file does not turn it on', () => {
    assert.equal(tracingSettings({}, { OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' }), undefined);
    assert.equal(tracingSettings({}, { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' }), undefined);
    assert.equal(tracingSettings({ endpoint: 'http://file:4318/v1/traces' }, { OTEL_TRACES_EXPORTER: 'none' }), undefined);
  });

  test('an endpoint in the file turns it on', () => {
    assert.deepEqual(tracingSettings({ endpoint: 'http://file:4318/v1/traces' }, {})?.endpoint, 'http://file:4318/v1/traces');
  });

  test('the samplers map to a ratio; bad variables are reported, never thrown', () => {
    const on = { OTEL_TRACES_EXPORTER: 'otlp' };
    assert.equal(tracingSettings({}, { ...on, OTEL_TRACES_SAMPLER: 'always_off' })?.sampleRatio, 0);
    assert.equal(tracingSettings({}, { ...on, OTEL_TRACES_SAMPLER: 'parentbased_always_on' })?.sampleRatio, 1);
    assert.equal(tracingSettings({}, { ...on, OTEL_TRACES_SAMPLER: 'traceidratio' })?.sampleRatio, 1);
    const problems: string[] = [];
    const settings = tracingSettings({}, { ...on, OTEL_TRACES_SAMPLER: 'jaeger_remote', OTEL_TRACES_SAMPLER_ARG: '7', OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url', OTEL_EXPORTER_OTLP_HEADERS: 'novalue,=x' }, (problem) => problems.push(problem));
    assert.deepEqual(settings, { endpoint: 'http://localhost:4318/v1/traces', serviceName: 'switchboard', sampleRatio: 1, headers: {} });
    assert.deepEqual(problems, [
      'OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: ignored',
      'OTEL_TRACES_SAMPLER jaeger_remote is not supported (always_on, always_off, traceidratio and their parentbased_ forms are): sampling every trace',
      'OTEL_EXPORTER_OTLP_HEADERS has an entry that is not key=value: ignored',
      'OTEL_EXPORTER_OTLP_HEADERS has an entry that is not key=value: ignored',
    ]);
  });
});
