// The client against real `formgen serve` processes: the builtin Worker, a Worker streaming from a
// chat-completions model double, token auth, and a concurrency limit of one. Run: node --test (from web/:
// npm run test:unit). FORMGEN_BIN names the binary (default ../target/debug/formgen).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createClient, groupFindings } from '../src/index.js';
import {
  WEB, builtinConfig, eventually, modelConfig, sha256, startFormgen, startStreamingModel, stopAll,
} from '../../../tests/support/formgen.mjs';

const VACATION = readFileSync(join(WEB, 'src', 'vacation.bpmn'), 'utf8');
const TOKEN = 'client-test-token';

let builtin;
let tokens;
let model;
let streaming;
let limited;

before(async () => {
  model = await startStreamingModel({ delayMs: 40 });
  [ builtin, tokens, streaming, limited ] = await Promise.all([
    startFormgen('client-builtin', builtinConfig()),
    startFormgen('client-tokens', builtinConfig(`[auth]
mode = "tokens"
[[auth.principals]]
name = "ana"
token_sha256 = "${sha256(TOKEN)}"`)),
    startFormgen('client-streaming', modelConfig(model.url)),
    startFormgen('client-limited', modelConfig(model.url, '[limits]\nconcurrent_generations = 1')),
  ]);
});

after(async () => {
  await stopAll();
  await model.stop();
});

describe('capability', () => {
  test('lists the builtin Worker and the limits an editor needs', async () => {
    const result = await createClient({ baseUrl: builtin.url }).capability();
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.available, true);
    assert.deepEqual(result.value.workers, [ { name: 'builtin', model: 'outline', provider: 'builtin' } ]);
    assert.equal(typeof result.value.limits.descriptionChars, 'number');
  });

  test('a base URL with a path prefix keeps its prefix', () => {
    const client = createClient({ baseUrl: 'https://example.test/tools/formgen' });
    assert.equal(client.apiUrl, 'https://example.test/tools/formgen/api/formgen/');
  });
});

describe('generate', () => {
  test('plain JSON: the proposal carries the formId asked for and names the step', async () => {
    const client = createClient({ baseUrl: builtin.url });
    const result = await client.generate(
      { processXml: VACATION, elementId: 'Task_approve', formId: 'approve-vacation' },
      { stream: false },
    );
    assert.ok(result.ok, JSON.stringify(result));
    const { schema, elementId, processId, processSource, warnings, attempts } = result.value;
    assert.equal(schema.id, 'approve-vacation');
    assert.equal(elementId, 'Task_approve');
    assert.equal(processId, 'vacation-request');
    assert.equal(processSource, 'request');
    assert.ok(Array.isArray(warnings));
    assert.equal(attempts, 1);
    assert.ok(schema.components.some((c) => c.key === 'approved'), 'the proposal has no field for "approved"');
    assert.deepEqual(result.value.findings.filter((f) => f.severity === 'error'), [], 'the builtin\'s draft supplies what the step must');
  });

  test('the event stream of the builtin Worker: one draft, then the proposal', async () => {
    const client = createClient({ baseUrl: builtin.url });
    const events = [];
    const drafts = [];
    const result = await client.generate(
      { processXml: VACATION, elementId: 'Task_approve', description: 'Approve or reject.' },
      { onEvent: (e) => events.push(e.type), onDraft: (d) => drafts.push(d) },
    );
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(events, [ 'draft', 'proposal' ]);
    assert.equal(drafts.length, 1);
    assert.ok(Array.isArray(drafts[0].components));
  });

  test('a streaming model: progress and growing drafts arrive in order before the proposal', async () => {
    const client = createClient({ baseUrl: streaming.url });
    const events = [];
    const progress = [];
    const result = await client.generate(
      { description: 'Four fields, please.' },
      { onEvent: (e) => events.push(e), onProgress: (p) => progress.push(p) },
    );
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(events.at(-1).type, 'proposal', `last event: ${events.at(-1).type}`);
    assert.equal(events.filter((e) => e.type === 'proposal').length, 1);
    const drafts = events.filter((e) => e.type === 'draft').map((e) => e.data.components.length);
    assert.ok(drafts.length >= 2, `drafts: ${drafts}`);
    assert.deepEqual(drafts, [ ...drafts ].sort((a, b) => a - b), `drafts shrank: ${drafts}`);
    assert.ok(progress.length >= 1, 'no progress event');
    assert.ok(progress.every((p) => p.attempt === 1 && typeof p.tokens === 'number'), JSON.stringify(progress));
    assert.deepEqual(result.value.schema.components.map((c) => c.label),
      [ 'Alpha field', 'Beta field', 'Gamma field', 'Delta field' ]);
  });

  test('aborting mid-stream ends the call as the error "aborted" and closes the model\'s connection', async () => {
    const client = createClient({ baseUrl: streaming.url });
    const controller = new AbortController();
    const closedBefore = model.closed;
    const result = await client.generate({ description: 'Four fields.' }, {
      signal: controller.signal,
      onDraft: () => controller.abort(),
    });
    assert.equal(result.ok, false);
    assert.deepEqual(result.error, { code: 'aborted', status: 0, message: 'Cancelled.' });
    await eventually(() => model.closed > closedBefore, 5_000, 'the model call stayed open after the abort');
  });

  test('a signal aborted before the answer: "aborted", for the plain call too', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await createClient({ baseUrl: builtin.url })
      .generate({ description: 'x' }, { stream: false, signal: controller.signal });
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'aborted');
  });

  test('an unknown process is the error value unknown_process, 404, with the service\'s sentence', async () => {
    const result = await createClient({ baseUrl: builtin.url }).generate({ processId: 'nope' });
    assert.equal(result.ok, false);
    assert.equal(result.error.status, 404);
    assert.equal(result.error.code, 'unknown_process');
    assert.match(result.error.message, /There is no process "nope"/);
  });

  test('an error event in the stream is an error value with its status (422 not_a_form_step)', async () => {
    const events = [];
    const result = await createClient({ baseUrl: builtin.url }).generate(
      { processXml: VACATION, elementId: 'Gateway_approved' },
      { onEvent: (e) => events.push(e.type) },
    );
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'not_a_form_step');
    assert.equal(result.error.status, 422);
    assert.match(result.error.message, /has no form/);
    assert.deepEqual(events, [ 'error' ]);
  });

  test('over the concurrency limit: 429 too_many_generations with Retry-After', async () => {
    const client = createClient({ baseUrl: limited.url });
    const controller = new AbortController();
    let drafted;
    const drafting = new Promise((r) => { drafted = r; });
    const first = client.generate({ description: 'Four fields.' }, { signal: controller.signal, onDraft: () => drafted() });
    await drafting; // the first generation holds the one permit
    const second = await client.generate({ description: 'Another.' }, { stream: false });
    controller.abort();
    await first;
    assert.equal(second.ok, false);
    assert.equal(second.error.status, 429);
    assert.equal(second.error.code, 'too_many_generations');
    assert.ok(second.error.retryAfter > 0, `retryAfter: ${second.error.retryAfter}`);
  });

  test('refine sends the form as it stands; the answer keeps its id', async () => {
    const client = createClient({ baseUrl: builtin.url });
    const schema = { id: 'approve-vacation', type: 'default', components: [ { type: 'textfield', key: 'note', label: 'Note' } ] };
    const result = await client.refine({ processXml: VACATION, elementId: 'Task_approve', schema, formId: schema.id });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.schema.id, 'approve-vacation');
  });

  test('refine without a schema is refused before anything is sent', async () => {
    const result = await createClient({ baseUrl: 'http://127.0.0.1:9' }).refine(/** @type {any} */ ({ description: 'x' }));
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'form_required');
  });
});

describe('validate and outline', () => {
  test('validate accepts a hand-written form and checks it against the step elementId names', async () => {
    const result = await createClient({ baseUrl: builtin.url }).validate({
      schema: { id: 'x', components: [ { type: 'textarea', key: 'comment', label: 'Kommentar' } ] },
      processXml: VACATION,
      elementId: 'Task_approve',
    });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.schema.id, 'x');
    assert.ok(Array.isArray(result.value.warnings));
    const missing = result.value.findings.find((f) => f.code === 'missing_supply');
    assert.ok(missing, JSON.stringify(result.value.findings));
    assert.equal(missing.key, 'approved');
    assert.equal(missing.severity, 'error');
    assert.match(missing.message, /reads `approved`/);
  });

  test('a form that breaks the gate\'s rules is checked, with an error finding per broken rule', async () => {
    const result = await createClient({ baseUrl: builtin.url }).validate({
      schema: { components: [
        { type: 'textfield', key: 'apiKey', label: 'API key' },
        { type: 'number', key: 'days', label: 'Days', validate: { min: 10, max: 1 } },
      ] },
    });
    assert.ok(result.ok, JSON.stringify(result));
    const codes = result.value.findings.map((f) => [ f.code, f.key, f.severity ]);
    assert.deepEqual(codes, [ [ 'secret_field', 'apiKey', 'error' ], [ 'invalid_validation', 'days', 'error' ] ]);
    assert.match(result.value.findings[0].message, /"API key" asks for a secret/);
  });

  test('text that holds no form is 422 schema_refused with the line and column of the mistake', async () => {
    const result = await createClient({ baseUrl: builtin.url }).validate({ text: '{"components": [\n  {"type": "textfield",, "key": "a"}]}' });
    assert.equal(result.ok, false);
    assert.equal(result.error.status, 422);
    assert.equal(result.error.code, 'schema_refused');
    assert.match(result.error.problems[0], /line 2, column 24/);
  });

  test('outline answers the step\'s data picture with forms and decisions as arguments', async () => {
    const result = await createClient({ baseUrl: builtin.url }).outline({
      processXml: VACATION, elementId: 'Task_approve', forms: [], decisions: [],
    });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.processSource, 'request');
    assert.ok(result.value.process.variables.includes('urlaubstage'));
    if (result.value.step) {
      assert.equal(result.value.step.elementId, 'Task_approve');
      assert.ok(result.value.step.toSupply.some((v) => v.name === 'approved'));
    }
  });

  test('fields the API does not know are not sent (formgen refuses unknown fields)', async () => {
    const result = await createClient({ baseUrl: builtin.url })
      .outline(/** @type {any} */ ({ processXml: VACATION, elementId: '', label: 'the start form' }));
    assert.ok(result.ok, JSON.stringify(result));
  });
});

describe('errors and the token', () => {
  test('without a token a tokens-mode formgen answers 401 as an error value', async () => {
    const result = await createClient({ baseUrl: tokens.url }).capability();
    assert.equal(result.ok, false);
    assert.equal(result.error.status, 401);
    assert.equal(result.error.code, 'unauthenticated');
  });

  test('a wrong token: 401 unknown_principal; the right one, set later, is accepted', async () => {
    const client = createClient({ baseUrl: tokens.url, token: 'wrong' });
    const wrong = await client.capability();
    assert.equal(wrong.ok, false);
    assert.equal(wrong.error.code, 'unknown_principal');
    client.setToken(() => TOKEN);
    const right = await client.capability();
    assert.ok(right.ok, JSON.stringify(right));
  });

  test('the token goes only into the Authorization header: never the URL or the body', async () => {
    const seen = [];
    const spy = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        seen.push({ url: req.url, headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"available":false,"workers":[],"limits":{}}');
      });
    });
    await new Promise((r) => spy.listen(0, '127.0.0.1', r));
    try {
      const client = createClient({ baseUrl: `http://127.0.0.1:${spy.address().port}`, token: 'canary-token-4711' });
      await client.capability();
      await client.outline({ processXml: '<definitions/>' });
      await client.validate({ schema: { components: [] } });
      await client.generate({ description: 'x' }, { stream: false });
      assert.equal(seen.length, 4);
      for (const { url, headers, body } of seen) {
        assert.equal(headers.authorization, 'Bearer canary-token-4711');
        const elsewhere = JSON.stringify({ url, body, headers: { ...headers, authorization: undefined } });
        assert.ok(!elsewhere.includes('canary-token-4711'), `the token leaked: ${elsewhere}`);
      }
      assert.deepEqual(seen.map((s) => s.url), [ '/api/formgen/capability', '/api/formgen/outline',
        '/api/formgen/validate', '/api/formgen/generate' ]);
    } finally {
      spy.close();
    }
  });

  test('nobody listening: the error value "unreachable" with status 0', async () => {
    const result = await createClient({ baseUrl: 'http://127.0.0.1:9' }).capability();
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'unreachable');
    assert.equal(result.error.status, 0);
  });
});

describe('findings', () => {
  test('groupFindings: findings without a key are the form\'s; the rest by key', () => {
    const findings = [
      { code: 'missing_supply', severity: 'error', key: null, message: 'No field supplies approved.' },
      { code: 'type_conflict', severity: 'error', key: 'days', message: 'days is compared with a number.' },
      { code: 'unused_key', severity: 'warning', key: 'days', message: 'x' },
    ];
    const { form, byKey } = groupFindings(/** @type {any} */ (findings));
    assert.deepEqual(form.map((f) => f.code), [ 'missing_supply' ]);
    assert.deepEqual(byKey.get('days').map((f) => f.code), [ 'type_conflict', 'unused_key' ]);
    assert.deepEqual(groupFindings(undefined), { form: [], byKey: new Map() });
  });
});
