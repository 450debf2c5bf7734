// bpmnlint-plugin-formgen in a browser: a bpmn-js Modeler with bpmn-js-bpmnlint (tests/harness/lint.js) in
// Debian's Chromium (playwright-core), the rules packed by bpmnlint's own compile-config as bpmnlint-loader
// and bpmnlint-pack-config pack a `.bpmnlintrc`, and formgen's core loaded from its wasm beside the page.
// Then the Camunda Modeler plugin's client script (built by `npm run build`) in the Modeler stand-in
// (tests/harness/modeler.js): its `lintRules.cloud-bpmn` config answering from the core the script carries.
// Needs no formgen binary: a static server on 127.0.0.1 serves the pages. Run: node web/tests/lint.mjs
//   CHROMIUM  the browser (default /usr/bin/chromium)
import { chromium } from 'playwright-core';
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildHarness } from './harness/build.mjs';
import { installAndLoadPlugin } from './modules.mjs';
import { WEB } from './support/formgen.mjs';
import { serveStatic } from './support/static.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = join(WEB, 'tests', 'artifacts');
const OUT = join(WEB, 'tests', '.build', 'lint');
const TMP = mkdtempSync(join(tmpdir(), 'formgen-lint-'));
const require = createRequire(join(WEB, 'package.json'));

const T0 = Date.now();
const log = (...args) => console.log(`[lint ${((Date.now() - T0) / 1000).toFixed(1)}s]`, ...args);
let failed = 0;

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function test(name, fn) {
  const started = Date.now();
  try {
    await fn();
    log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed += 1;
    log(`FAIL ${name}: ${err.stack || err}`);
  }
}

/**
 * The harness page, with `formgen-lint-config` as bpmnlint packs `{ extends: plugin:formgen/recommended }`:
 * its compile-config writes the module that imports each enabled rule by its package path.
 */
async function buildPage() {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const compileConfig = require('bpmnlint/lib/support/compile-config');
  const NodeResolver = require('bpmnlint/lib/resolver/node-resolver');
  const packed = await compileConfig({ extends: [ 'plugin:formgen/recommended' ] }, new NodeResolver({ require }));

  /** @type {import('esbuild').Plugin} */
  const lintConfig = {
    name: 'formgen-lint-config',
    setup(b) {
      b.onResolve({ filter: /^formgen-lint-config$/ }, () => ({ path: 'formgen-lint-config', namespace: 'bpmnlintrc' }));
      b.onLoad({ filter: /.*/, namespace: 'bpmnlintrc' }, () => ({ contents: packed, resolveDir: WEB, loader: 'js' }));
    },
  };
  await build({
    absWorkingDir: WEB,
    entryPoints: [ 'tests/harness/lint.js' ],
    outdir: OUT,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    loader: { '.bpmn': 'text', '.form': 'text', '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.eot': 'file', '.svg': 'file' },
    assetNames: '[name]-[hash]',
    plugins: [ lintConfig ],
    external: [ 'node:*' ], // @formgen/core's Node-only file read, never taken in a browser
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  copyFileSync(require.resolve('@formgen/core/formgen_core.wasm'), join(OUT, 'formgen_core.wasm'));
  writeFileSync(join(OUT, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lint</title><link rel="icon" href="data:,"><link rel="stylesheet" href="lint.css">
<style>html, body, #canvas { height: 100%; margin: 0; }
  /* bpmn-js-bpmnlint 0.24 colours its overlay with diagram-js's former palette variables, which bpmn-js 18 no longer sets */
  .djs-parent { --color-red-360-100-40: hsl(360, 100%, 40%); --color-blue-205-100-45: hsl(205, 100%, 45%);
    --color-grey-225-10-15: hsl(225, 10%, 15%); --color-grey-225-10-75: hsl(225, 10%, 75%); --color-grey-225-10-97: hsl(225, 10%, 97%); }</style></head>
<body><div id="canvas"></div><script type="module" src="lint.js"></script></body></html>
`);
  return { packed };
}

const { packed } = await buildPage();
const server = await serveStatic(OUT);
const { url } = server;
const context = await chromium.launchPersistentContext(join(TMP, 'profile'), {
  executablePath: CHROMIUM,
  headless: true,
  args: [ '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync' ],
  viewport: { width: 1200, height: 800 },
  timeout: 30_000,
});

async function open(query = '', base = url) {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (/^(error|warning)$/.test(msg.type()) && !msg.text().startsWith('Failed to load resource')) log(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('response', (res) => { if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) log(`${res.status()} ${res.url()}`); });
  page.on('pageerror', (err) => log(`page error: ${err.message}`));
  await page.goto(`${base}/${query}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

/** The issues overlay bpmn-js-bpmnlint draws on an element: each entry's state, rule and message. */
const overlayIssues = (page, id) => page.locator(`.djs-overlays[data-container-id="${id}"] .bjsl-overlay li`)
  .evaluateAll((items) => items.map((li) => ({
    state: li.className, rule: li.dataset.rule, message: li.querySelector('.message').textContent,
  })));

try {
  await test('the packed config imports every recommended rule from the plugin', async () => {
    for (const rule of [ 'embedded-form', 'form-not-found', 'unwritten-read' ]) {
      assert(packed.includes(`from 'bpmnlint-plugin-formgen/rules/${rule}'`), `${rule} is not imported:\n${packed}`);
    }
  });

  await test('an embedded form\'s contract error shows in the issues overlay on its step, once the core is loaded', async () => {
    const { page, errors } = await open();
    const state = await page.evaluate(() => ({ before: window.beforeReady, after: window.afterReady }));
    assert(state.before.length === 0, `findings before the core was loaded: ${state.before}`);
    assert(JSON.stringify(state.after) === '["formgen/embedded-form"]', `after: ${state.after}`);
    const issues = await overlayIssues(page, 'Task_check');
    assert(issues.length === 1 && issues[0].rule === 'formgen/embedded-form' && issues[0].state === 'error',
      `overlay on Task_check: ${JSON.stringify(issues)}`);
    assert(issues[0].message.includes('reads `shipping` right after this step'), issues[0].message);
    assert(await page.locator('.djs-overlays[data-container-id="Task_check"] .bjsl-icon-error').count() === 1, 'no error icon');

    // without a project, the form bound by id is not looked for
    assert((await overlayIssues(page, 'Task_review')).length === 0, 'an issue on Task_review without a project');

    // the dropdown, as an author sees it on hover
    await page.locator('.djs-overlays[data-container-id="Task_check"] .bjsl-icon').hover();
    await page.locator('.djs-overlays[data-container-id="Task_check"] .bjsl-dropdown-content').waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'lint-overlay.png') });
    assert(errors.length === 0, `page errors: ${errors}`);
    await page.close();
  });

  await test('the host\'s project (setProject): the form a step binds and the project lacks is reported on it', async () => {
    const { page, errors } = await open('?project');
    const issues = await overlayIssues(page, 'Task_review');
    assert(issues.length === 1 && issues[0].rule === 'formgen/form-not-found' && issues[0].state === 'error',
      `overlay on Task_review: ${JSON.stringify(issues)}`);
    assert(issues[0].message.includes('binds the form "review-order", which the project does not hold'), issues[0].message);
    assert(errors.length === 0, `page errors: ${errors}`);
    await page.close();
  });
  await test('Camunda Modeler plugin: its client script registers the rules as lintRules.cloud-bpmn, answering from the core it carries', async () => {

    // the plugin installed and loaded into the Modeler stand-in, as tests/modules.mjs does (needs `npm run build`)
    const harness = await buildHarness();
    cpSync(installAndLoadPlugin(TMP).folder, join(harness, 'plugins', 'formgen'), { recursive: true });
    const modelerServer = await serveStatic(harness);
    try {
      const { page, errors } = await open('modeler.html', modelerServer.url);
      const xml = readFileSync(join(WEB, 'packages', 'bpmnlint-plugin-formgen', 'test', 'fixtures', 'browser', 'shipping.bpmn'), 'utf8');
      const reports = await page.evaluate(async (text) => {
        await window.modeler.importXML(text);
        const registered = window.plugins.filter((p) => p.type === 'lintRules.cloud-bpmn').map((p) => p.plugin);
        if (registered.length !== 1) return `lintRules.cloud-bpmn plugins: ${registered.length}`;
        const { config, resolver } = registered[0];

        // what bpmnlint's Linter does with a packed config, for the definitions (the rules look at nothing else)
        const lint = () => Object.entries(config.rules).flatMap(([ name, value ]) => {
          const found = [];
          const rule = resolver.resolveRule('bpmnlint-plugin-formgen', name.replace(/^formgen\//, ''));
          rule(Array.isArray(value) ? value[1] : {}).check(window.modeler.getDefinitions(), {
            report: (id, message) => found.push({ rule: name, id, message }),
          });
          return found;
        });

        // the core compiles from the script's bytes in the background: nothing before, the findings after
        for (let tries = 0; tries < 200; tries++) {
          const found = lint();
          if (found.length) return found;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return 'no findings within 10 s';
      }, xml);
      assert(Array.isArray(reports), reports);
      assert(reports.length === 1 && reports[0].rule === 'formgen/embedded-form' && reports[0].id === 'Task_check',
        `reports: ${JSON.stringify(reports)}`);
      assert(errors.length === 0, `page errors: ${errors}`);
      await page.close();
    } finally {
      await modelerServer.stop();
    }
  });
} finally {
  await context.close();
  await server.stop();
  rmSync(TMP, { recursive: true, force: true });
}

log(failed ? `${failed} failed` : 'all passed');
process.exit(failed ? 1 : 0);
