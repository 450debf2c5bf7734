// @formgen/core/editors in Node: the answers in the HTTP API's shapes, the project from the editors' forms,
// and errors as values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { check, draft, outline, ready } from '../src/editors.js';

const processXml = await readFile(new URL('../../../../fixtures/bpmn/vacation.bpmn', import.meta.url), 'utf8');

test('before the core is loaded, every call says so as a value', () => {
  assert.equal(outline({ processXml }).ok, false);
});

test('ready loads the core once for every caller', async () => {
  assert.deepEqual(await ready(), { ok: true, value: true });
  assert.deepEqual(await ready(), { ok: true, value: true });
});

test('outline answers as POST /outline does, reading the held forms', async () => {
  await ready();
  const form = { id: 'approve-vacation', type: 'default', components: [ { type: 'checkbox', key: 'approved' } ] };
  const answer = outline({ processXml, elementId: 'Task_hr', forms: [ form ], decisions: [] });
  assert.ok(answer.ok);
  assert.equal(answer.value.process.id, 'vacation-request');
  assert.deepEqual(answer.value.step.forms, [ 'approve-vacation' ]);
  assert.deepEqual(answer.value.findings, []);
});

test('a draft is a proposal of the builtin; check finds what an edit broke', async () => {
  await ready();
  const drafted = draft({ processXml, elementId: 'Task_approve', formId: 'approve-vacation' });
  assert.ok(drafted.ok);
  assert.equal(drafted.value.worker, 'builtin');
  assert.equal(drafted.value.schema.id, 'approve-vacation');
  const schema = { ...drafted.value.schema, components: drafted.value.schema.components.filter((c) => c.key !== 'approved') };
  const checked = check({ processXml, elementId: 'Task_approve', schema });
  assert.ok(checked.ok);
  assert.deepEqual(checked.value.findings.map((f) => [ f.code, f.key ]), [ [ 'missing_supply', 'approved' ] ]);

  // without a process: the gate alone
  const gate = check({ schema: { id: 'x', components: [ { type: 'textfield', key: 'password' } ] } });
  assert.ok(gate.ok);
  assert.deepEqual(gate.value.findings.map((f) => f.code), [ 'secret_field' ]);
});

test('errors are values with the core\'s code', async () => {
  await ready();
  assert.equal(draft({ elementId: 'Task_approve' }).error?.code, 'no_process');
  const unknown = outline({ processXml, elementId: 'Nope' });
  assert.equal(unknown.ok, false);
  assert.equal(unknown.error.code, 'unknown_element');
});
