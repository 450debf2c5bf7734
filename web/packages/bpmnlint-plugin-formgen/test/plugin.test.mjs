// bpmnlint-plugin-formgen: through the real bpmnlint CLI on the fixtures (the plugin found as an installed
// package, its recommended config extended from a .bpmnlintrc), and through bpmnlint's Linter on definitions
// read with the Zeebe extension, as an editor holds them (changed in place between runs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { BpmnModdle } from 'bpmn-moddle';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const FIXTURES = join(here, 'fixtures');
const CLI = require.resolve('bpmnlint/bin/bpmnlint.js');
const { Linter } = require('bpmnlint');
const plugin = require('bpmnlint-plugin-formgen');
const packed = require('bpmnlint-plugin-formgen/packed');
const { readProject } = require('../lib/node.js');
const zeebe = JSON.parse(readFileSync(require.resolve('zeebe-bpmn-moddle/resources/zeebe.json'), 'utf8'));

/** Runs the bpmnlint CLI in a fixture folder: its exit code and its table's rows as [id, category, rule]. */
function bpmnlint(folder, ...args) {
  const run = spawnSync(process.execPath, [ CLI, ...args ], {
    cwd: join(FIXTURES, folder), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const rows = run.stdout.split('\n').map((line) => /^ {2}(\S+)\s+(error|warning)\s+.*\s(formgen\/[a-z-]+)\s*$/.exec(line))
    .filter(Boolean).map(([ , id, category, rule ]) => [ id, category, rule ]);
  return { status: run.status, rows, stdout: run.stdout, stderr: run.stderr };
}

async function definitions(path) {
  const moddle = new BpmnModdle({ zeebe });
  return (await moddle.fromXML(readFileSync(join(FIXTURES, path), 'utf8'))).rootElement;
}

/** bpmnlint's Linter with the packed recommended config: reports as [id, rule]. */
async function lint(defs, config = packed.config) {
  const results = await new Linter({ resolver: packed.resolver }).lint(defs, config);
  return Object.entries(results).flatMap(([ rule, reports ]) => reports.map((r) => [ r.id, rule ])).sort();
}

test('the CLI reports the process\'s own findings on their elements, as warnings (exit 0)', () => {
  const { status, rows } = bpmnlint('process', 'invoice.bpmn');
  assert.equal(status, 0);
  assert.deepEqual(rows.sort(), [
    [ 'Flow_yes', 'warning', 'formgen/misspelled-variable' ],
    [ 'Flow_yes', 'warning', 'formgen/unquoted-literal' ],
    [ 'Wait', 'warning', 'formgen/unquoted-literal' ],
    [ 'Wait', 'warning', 'formgen/unwritten-read' ],
  ]);
  assert.equal(bpmnlint('process', '--max-warnings=0', 'invoice.bpmn').status, 1);
});

test('the CLI reports an embedded form\'s contract errors on its step (exit 1)', () => {
  const { status, rows, stdout } = bpmnlint('process', 'order.bpmn');
  assert.equal(status, 1);
  assert.deepEqual(rows, [ [ 'check', 'error', 'formgen/embedded-form' ], [ 'check', 'error', 'formgen/embedded-form' ] ]);
  assert.match(stdout, /reads `shipping` right after this step/);
});

test('the CLI says nothing about a clean process (exit 0)', () => {
  const { status, rows, stderr } = bpmnlint('process', 'vacation.bpmn');
  assert.equal(status, 0);
  assert.deepEqual(rows, []);
  assert.equal(stderr, '');
});

test('with the `project` option the CLI reads the folder: forms found, decisions typed', () => {
  const claim = bpmnlint('project', 'claim.bpmn');
  assert.equal(claim.status, 1);

  // claim-start and claim-review are in forms/; claim-manager only in .drafts/, which is passed over
  assert.deepEqual(claim.rows, [ [ 'Task_manager', 'error', 'formgen/form-not-found' ] ]);
  const offer = bpmnlint('project', 'offer.bpmn');
  assert.deepEqual(offer.rows.filter(([ , , rule ]) => rule === 'formgen/decision-type-mismatch'),
    [ [ 'Task_offer', 'warning', 'formgen/decision-type-mismatch' ] ]);
});

test('without a project a form bound by id is not looked for', () => {
  assert.deepEqual(bpmnlint('process', '--config', '.bpmnlintrc', join(FIXTURES, 'project', 'claim.bpmn')).rows, []);
});

test('the plugin follows bpmnlint\'s layout: rules by path, the recommended config', () => {
  assert.deepEqual(Object.keys(plugin.rules).sort(), [
    'decision-type-mismatch', 'embedded-form', 'embedded-form-warning', 'form-not-found', 'misspelled-variable',
    'unquoted-literal', 'unreadable-form', 'unwritten-read',
  ]);
  for (const [ name, path ] of Object.entries(plugin.rules)) {
    assert.equal(typeof require(join(here, '..', path)), 'function', name);
    assert.ok(`formgen/${name}` in plugin.configs.recommended.rules, name);
  }
  assert.deepEqual(packed.config, plugin.configs.recommended);
});

test('an edit between runs is seen: the definitions are written anew each run', async () => {
  const defs = await definitions('process/invoice.bpmn');
  assert.ok((await lint(defs)).some(([ id, rule ]) => id === 'Flow_yes' && rule === 'formgen/misspelled-variable'));
  const flow = defs.rootElements[0].flowElements.find((e) => e.id === 'Flow_yes');
  flow.conditionExpression.body = '= eligibilityCheck = "APPROVED"';
  assert.deepEqual((await lint(defs)).filter(([ id ]) => id === 'Flow_yes'), []);
});

test('a host\'s project (setProject) and a project given as files', async () => {
  const defs = await definitions('project/claim.bpmn');
  const form = (name) => ({ name: `forms/${name}`, text: readFileSync(join(FIXTURES, 'project', 'forms', name), 'utf8') });
  const files = [ form('claim-start.form'), form('claim-review.form') ];
  try {
    plugin.setProject(files);
    assert.deepEqual(await lint(defs), [ [ 'Task_manager', 'formgen/form-not-found' ] ]);
    plugin.setProject(null);
    assert.deepEqual(await lint(defs), []);
  } finally {
    plugin.setProject(null);
  }
  const config = { rules: { 'formgen/form-not-found': [ 'error', { project: files } ] } };
  assert.deepEqual(await lint(defs, config), [ [ 'Task_manager', 'formgen/form-not-found' ] ]);
});

test('a project folder: .form and .dmn files by their path, node_modules and dot-folders passed over', () => {
  const names = readProject(join(here, '..', '..', '..', '..', 'fixtures', 'project', 'basic')).map((f) => f.name);
  assert.deepEqual(names, [
    'broken.form', 'empty.dmn', 'nested/deeper/approval.form', 'not-a-form.form', 'order-check.form', 'risk.dmn',
  ]);
});

test('as bundled for a browser, the rules report nothing until ready() has loaded the core', () => {

  // the `browser` field's swap (lib/node.js → lib/browser.js), done by a resolver hook in a fresh process
  const script = `
    const Module = require('node:module');
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function(...args) {
      return resolve.apply(this, args).replace(/lib[\\\\/]node\\.js$/, 'lib/browser.js');
    };
    const { Linter } = require('bpmnlint');
    const { BpmnModdle } = require('bpmn-moddle');
    const { ready } = require('bpmnlint-plugin-formgen');
    const packed = require('bpmnlint-plugin-formgen/packed');
    const fs = require('node:fs');
    (async () => {
      const { rootElement } = await new BpmnModdle().fromXML(fs.readFileSync(process.argv[1], 'utf8'));
      const count = async () => Object.values(await new Linter(packed).lint(rootElement)).flat().length;
      const before = await count();
      await ready(fs.readFileSync(require.resolve('@formgen/core/formgen_core.wasm')));
      console.log(JSON.stringify([ before, await count() ]));
    })();`;
  const run = spawnSync(process.execPath, [ '-e', script, join(FIXTURES, 'process', 'order.bpmn') ], {
    cwd: here, encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), [ 0, 2 ]);
});
