/** @module Tests of the capability check for input requests, kind by kind and mode by mode. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { coversInputRequest, inputCapabilityError, missingInputCapabilities, requiredCapabilities } from './input-capabilities.js';
import type { InputRequest } from './input-required.js';

const FORM: InputRequest = { method: 'elicitation/create', params: { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } } };
const NO_MODE: InputRequest = { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } };
const URL_MODE: InputRequest = { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://x' } };
const SAMPLE: InputRequest = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
const SAMPLE_TOOLS: InputRequest = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5, tools: [] } };
const SAMPLE_CHOICE: InputRequest = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5, toolChoice: { mode: 'auto' } } };
const ROOTS: InputRequest = { method: 'roots/list' };

type Row = [declared: unknown, request: InputRequest, covered: boolean];

const ROWS: Row[] = [
  [{ elicitation: { form: {} } }, FORM, true],
  [{ elicitation: {} }, FORM, true],
  [{ elicitation: {} }, NO_MODE, true],
  [{ elicitation: { url: {} } }, FORM, false],
  [{ elicitation: { url: {} } }, NO_MODE, false],
  [{ elicitation: { form: {}, url: {} } }, URL_MODE, true],
  [{ elicitation: { url: {} } }, URL_MODE, true],
  [{ elicitation: { form: {} } }, URL_MODE, false],
  [{ elicitation: {} }, URL_MODE, false],
  [{}, FORM, false],
  [{ elicitation: true }, FORM, false],
  [{ sampling: {} }, SAMPLE, true],
  [{ sampling: {} }, SAMPLE_TOOLS, false],
  [{ sampling: {} }, SAMPLE_CHOICE, false],
  [{ sampling: { tools: {} } }, SAMPLE_TOOLS, true],
  [{ elicitation: {} }, SAMPLE, false],
  [{ roots: {} }, ROOTS, true],
  [{ roots: { listChanged: true } }, ROOTS, true],
  [{ sampling: {} }, ROOTS, false],
  [undefined, ROOTS, false],
];

test('each input request is covered only by the capability (and mode) it needs', () => {
  for (const [declared, request, covered] of ROWS) {
    assert.equal(coversInputRequest(declared, request), covered, `${JSON.stringify(declared)} ${request.method} ${JSON.stringify(request.params ?? {})}`);
  }
});

test('what is required is what covers: the required capabilities always cover their own request', () => {
  for (const request of [FORM, NO_MODE, URL_MODE, SAMPLE, SAMPLE_TOOLS, SAMPLE_CHOICE, ROOTS]) {
    assert.ok(coversInputRequest(requiredCapabilities(request), request), request.method);
  }
  assert.deepEqual(requiredCapabilities(URL_MODE), { elicitation: { url: {} } });
  assert.deepEqual(requiredCapabilities(SAMPLE_TOOLS), { sampling: { tools: {} } });
});

test('the missing capabilities of several requests merge into one -32021 payload', () => {
  assert.equal(missingInputCapabilities({ elicitation: {}, sampling: {} }, [FORM, SAMPLE]), undefined);
  assert.deepEqual(missingInputCapabilities({ elicitation: { form: {} } }, [FORM, URL_MODE, SAMPLE_TOOLS, ROOTS]), {
    elicitation: { url: {} },
    sampling: { tools: {} },
    roots: {},
  });
  assert.deepEqual(missingInputCapabilities({}, [FORM, URL_MODE, SAMPLE, SAMPLE_TOOLS]), { elicitation: { form: {}, url: {} }, sampling: { tools: {} } });
});

test('the -32021 error carries the merged missing capabilities', () => {
  assert.equal(inputCapabilityError({ elicitation: { form: {}, url: {} } }, [FORM, URL_MODE]), undefined);
  const error = inputCapabilityError({ elicitation: { form: {} } }, [FORM, URL_MODE]);
  assert.equal(error?.code, -32021);
  assert.deepEqual(error?.data, { requiredCapabilities: { elicitation: { url: {} } } });
});
