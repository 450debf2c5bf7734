// @formgen/core in Node: each call answers from the WebAssembly core, errors carry their codes, and a
// process sent as bytes reads as the CLI reads a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import * as core from '../src/index.js';

const fixture = (name) => readFile(new URL(`../../../../fixtures/${name}`, import.meta.url), 'utf8');

test('a call before init says so', () => {
  assert.throws(() => core.outline({ processXml: '<definitions/>' }), { code: 'not_ready' });
});

test('init loads the core once', async () => {
  await core.init();
  await core.init();
  assert.ok(core.isReady());
});

test('outline, draft, check and validate answer', async () => {
  await core.init();
  const processXml = await fixture('bpmn/vacation.bpmn');
  const outline = core.outline({ processXml, processName: 'vacation.bpmn' });
  assert.equal(outline.file, 'vacation.bpmn');
  const task = outline.processes[0].elements.find((e) => e.kind === 'userTask');
  assert.ok(task, 'a user task');
  const drafted = core.draft({ processXml, elementId: task.id });
  assert.equal(drafted.schema.type, 'default');
  const checked = core.check({ processXml, elementId: task.id, form: drafted.schema });
  assert.deepEqual(checked.findings.filter((f) => f.severity === 'error'), []);
  const validated = core.validate({ processXml, elementId: task.id, form: JSON.stringify(drafted.schema) });
  assert.deepEqual(validated.schema, drafted.schema);
});

test('a process as bytes reads as its text does', async () => {
  await core.init();
  const text = await fixture('bpmn/vacation.bpmn');
  const bytes = new TextEncoder().encode(text);
  assert.deepEqual(core.outline({ processXml: bytes }), core.outline({ processXml: text }));
});

test('errors carry the core\'s code and sentence', async () => {
  await core.init();
  assert.throws(() => core.check({ form: '{"components": [' }), (e) => {
    assert.ok(e instanceof core.FormgenCoreError);
    assert.equal(e.code, 'unreadable_form');
    assert.match(e.message, /line 1/);
    return true;
  });
  assert.throws(() => core.outline({}), { code: 'no_process' });
  assert.throws(() => core.outline({ nonsense: true }), { code: 'bad_request' });
});
