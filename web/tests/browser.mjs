// The page in a real browser (Debian's Chromium, driven by playwright-core) against real `formgen serve`
// processes: the builtin Worker (deterministic, no model), one with no Worker at all, and one with token
// auth and two Workers. Run: node web/tests/browser.mjs   (exit code 1 on any failure)
//   FORMGEN_BIN     the formgen binary (default ../target/debug/formgen, relative to web/)
//   CHROMIUM        the browser (default /usr/bin/chromium)
// Screenshots and server logs go to web/tests/artifacts/; the successful generation is also copied to
// web/screenshot.png for the README.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { moduleTests } from './modules.mjs';
import { offlineTests } from './offline.mjs';
import { BIN, WEB, sha256, startFormgen, startStreamingModel, stopAll } from './support/formgen.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const DIST = join(WEB, 'dist');
const ARTIFACTS = join(WEB, 'tests', 'artifacts');
const TMP = mkdtempSync(join(tmpdir(), 'formgen-browser-'));
const TIMEOUT = 15_000; // per wait: everything here is local and the builtin Worker answers at once

const BUILTIN_CONFIG = `[server]
listen = "127.0.0.1:0"
[limits]
description_chars = 300
[[workers]]
name = "builtin"
provider = "builtin"
`;
const NO_WORKER_CONFIG = '[server]\nlisten = "127.0.0.1:0"\n';
const TOKEN = 'browser-test-token';
const TOKENS_CONFIG = `[server]
listen = "127.0.0.1:0"
[auth]
mode = "tokens"
[[auth.principals]]
name = "ana"
token_sha256 = "${sha256(TOKEN)}"
[[workers]]
name = "builtin"
provider = "builtin"
[[workers]]
name = "drafts"
provider = "builtin"
model = "outline-2"
`;

// Every element of the vacation process; the shipped copy must draw each one.
const VACATION_IDS = [
  'Lane_employee', 'Lane_lead', 'StartEvent_request', 'Task_approve', 'Gateway_approved', 'Gateway_long',
  'Task_hr', 'Task_book', 'End_booked', 'Task_inform', 'End_rejected', 'Flow_1', 'Flow_2', 'Flow_yes',
  'Flow_no', 'Flow_long', 'Flow_short', 'Flow_hr_done', 'Flow_booked', 'Flow_rejected',
];

let context = null;
let passed = 0;
let failed = 0;
const externalRequests = [];
const pageErrors = [];

const T0 = Date.now();
function log(...args) { console.log(`[browser ${((Date.now() - T0) / 1000).toFixed(1)}s]`, ...args); }

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Starts `formgen serve` with this config and the built page; resolves with its URL. */
async function startServer(name, config) {
  const server = await startFormgen(name, config, { env: { FORMGEN_WEB_DIR: DIST }, logDir: ARTIFACTS });
  return server.url;
}

function isLocal(url) {
  if (/^(data|about):/.test(url)) return true;
  const inner = url.startsWith('blob:') ? url.slice(5) : url; // blob:http://127.0.0.1:PORT/uuid
  try {
    return new URL(inner).hostname === '127.0.0.1';
  } catch {
    return false;
  }
}

async function test(name, fn) {
  const started = Date.now();
  try {
    await fn();
    passed += 1;
    log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed += 1;
    log(`FAIL ${name}: ${err.stack || err}`);

    // What the page showed when it failed, for the CI artifacts.
    const pages = context ? context.pages() : [];
    for (const [ i, open ] of pages.entries()) {
      await open.screenshot({ path: join(ARTIFACTS, `failed-${failed}-page${i}.png`) }).catch(() => {});
    }
  }
}

async function openPage(url, name) {

  // The persistent context opens with one blank tab: use it for the first page.
  const blank = context.pages().find((p) => p.url() === 'about:blank');
  const page = blank || await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.on('pageerror', (err) => pageErrors.push(`${name}: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') log(`console error on ${name}: ${msg.text()}`); });
  await page.goto(url);
  return page;
}

/** Waits until the capability probe has answered and the page has acted on it. */
async function capability(page) {
  await page.waitForSelector('#formgen:not([data-capability="pending"])');
  return page.getAttribute('#formgen', 'data-capability');
}

async function shot(page, name, options = {}) {
  const path = join(ARTIFACTS, name);
  await page.screenshot({ path, ...options });
  return path;
}

/** Keeps a screenshot for the README (committed beside it in web/). */
function keep(path, name) {
  copyFileSync(path, join(WEB, name));
}

/** Selects a shape by clicking it, as an author would; a click on a selected shape would deselect it. */
async function selectShape(page, id) {
  const shape = page.locator(`#canvas .djs-element[data-element-id="${id}"]`);
  if (!/\bselected\b/.test(await shape.getAttribute('class'))) await shape.click();
  await page.waitForSelector(`#canvas .djs-element.selected[data-element-id="${id}"]`);
}


/** Waits until the form editor shows this id. */
async function waitEditorFormId(page, id) {
  await page.locator('#form-editor .bio-properties-panel-header-label', { hasText: new RegExp(`^${id}$`) }).waitFor();
}

/** Waits until the Data panel shows the answer for this step (or the start form: ''). */
async function dataFor(page, elementId) {
  const label = elementId ? `(${elementId})` : 'of the start form';
  await page.locator('#formgen-data-step', { hasText: label }).waitFor();
  await page.waitForSelector('#formgen-data[data-state="ready"]');
}

/** A label in the form editor's canvas: the editor draws the proposal, so this is what the author sees. */
const formLabel = (page, text) => page.locator('#form-editor .fjs-form-field-label', { hasText: text }).first();

async function main() {
  assert(existsSync(BIN), `no formgen binary at ${BIN}: build it first (cargo build) or set FORMGEN_BIN`);
  assert(existsSync(join(DIST, 'index.html')), `no ${DIST}/index.html: run npm run build in web/ first`);
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });

  const [ builtinUrl, noWorkerUrl, tokensUrl ] = await Promise.all([
    startServer('builtin', BUILTIN_CONFIG),
    startServer('no-worker', NO_WORKER_CONFIG),
    startServer('tokens', TOKENS_CONFIG),
  ]);
  log(`servers: builtin ${builtinUrl}, no Worker ${noWorkerUrl}, tokens ${tokensUrl}`);

  // A fresh, empty profile each run: no cache, no extensions, no state from an earlier run.
  context = await chromium.launchPersistentContext(join(TMP, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [ '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync' ],
    viewport: { width: 1400, height: 900 }, // the size the issue about the palette was seen at
    acceptDownloads: true,
    timeout: 30_000,
  });
  context.on('request', (request) => { if (!isLocal(request.url())) externalRequests.push(request.url()); });

  await test('the shipped process is the fixture, with a full diagram', async () => {
    const outline = (file) => execFileSync(BIN, [ 'outline', '--json', file ], { encoding: 'utf8' });
    const ours = outline(join(WEB, 'src', 'vacation.bpmn'));
    const fixture = outline(resolve(WEB, '../fixtures/bpmn/vacation.bpmn'));
    assert(ours === fixture, 'formgen reads web/src/vacation.bpmn differently from fixtures/bpmn/vacation.bpmn');
  });

  const page = await openPage(builtinUrl, 'builtin');

  await test('a. the page loads offline-built assets and draws the whole process', async () => {
    await page.waitForSelector('#canvas[data-import-warnings]');
    assert(await page.getAttribute('#canvas', 'data-import-warnings') === '0', 'bpmn-js reported import warnings');
    for (const id of VACATION_IDS) {
      assert(await page.locator(`#canvas [data-element-id="${id}"]`).count() > 0, `${id} is not drawn`);
    }

    // The bpmn-font draws the palette's icons: it must have been found in dist and loaded.
    await page.waitForSelector('.djs-palette .bpmn-icon-task');
    const fontLoaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [ ...document.fonts ].some((f) => f.family.replace(/["']/g, '') === 'bpmn' && f.status === 'loaded');
    });
    assert(fontLoaded, 'the bpmn font did not load');
    assert(await page.locator('.bjs-powered-by').isVisible(), 'the bpmn.io watermark of the modeller is not visible');
    await page.waitForSelector('#form-editor .fjs-editor-container');
  });

  await test('d. on open the diagram fits the canvas, clear of the palette and its lane labels', async () => {
    const canvas = await page.locator('#canvas').boundingBox();
    const palette = await page.locator('#canvas .djs-palette').boundingBox();
    for (const id of VACATION_IDS) {
      const box = await page.locator(`#canvas .djs-element[data-element-id="${id}"]`).first().boundingBox();
      assert(box.x >= canvas.x && box.y >= canvas.y && box.x + box.width <= canvas.x + canvas.width
        && box.y + box.height <= canvas.y + canvas.height, `${id} lies outside the canvas: ${JSON.stringify(box)}`);
      assert(box.x > palette.x + palette.width, `the palette covers ${id}: ${JSON.stringify(box)} vs ${JSON.stringify(palette)}`);
    }

    // The lane labels are drawn at the lanes' left edge: their text must be clear of the palette too.
    for (const lane of [ 'Lane_employee', 'Lane_lead' ]) {
      const label = await page.locator(`#canvas .djs-element[data-element-id="${lane}"] text`).boundingBox();
      assert(label && label.x > palette.x + palette.width, `the palette covers the label of ${lane}`);
    }
  });

  await test('d. before any generation the form editor shows the id the form has or will have', async () => {

    // Nothing selected: the start form, bound to "vacation-request-form" (never a random Form_0c8hoa4).
    await waitEditorFormId(page, 'vacation-request-form');
    await selectShape(page, 'Task_hr'); // binds nothing: the id a generation will give it
    await waitEditorFormId(page, 'vacation-request-Task_hr');
    await selectShape(page, 'Task_approve'); // binds "approve-vacation"
    await waitEditorFormId(page, 'approve-vacation');
  });

  await test('d. the properties panel shows the step\'s form binding and its mappings', async () => {
    await selectShape(page, 'Task_approve');
    await page.locator('#properties .bio-properties-panel-header-label', { hasText: 'Antrag prüfen' }).waitFor();
    const formId = page.locator('#properties [data-group-id="group-form"] input[name="formId"]');
    assert(await formId.inputValue() === 'approve-vacation', `Form ID shown: ${await formId.inputValue()}`);
    const inputs = await page.textContent('#properties [data-group-id="group-inputs"]');
    for (const name of [ 'employeeName', 'urlaubstage', 'startDate' ]) assert(inputs.includes(name), `input mapping ${name} not shown: ${inputs}`);
    const outputs = await page.textContent('#properties [data-group-id="group-outputs"]');
    for (const name of [ 'approved', 'comment' ]) assert(outputs.includes(name), `output mapping ${name} not shown: ${outputs}`);
  });

  await test('e. the Data panel shows the core\'s picture of the selected step, asking the service nothing', async () => {
    const asked = [];
    const watch = (r) => { if (/\/api\/formgen\/(outline|validate)/.test(r.url())) asked.push(r.url()); };
    page.on('request', watch);
    await selectShape(page, 'Task_hr');
    await dataFor(page, 'Task_hr');
    await selectShape(page, 'Task_approve');
    await dataFor(page, 'Task_approve');

    // The approval task of the shipped process reads what the start form collected and decides on
    // `approved`: the core's picture (formgen outline's `step`), drawn in the browser.
    assert(await page.getAttribute('#formgen-data', 'data-step') === 'present', 'a step picture was not shown');
    const supplies = await page.locator('#formgen-data [data-section="The form supplies"] code').allTextContents();
    assert(supplies.includes('approved') && supplies.includes('comment'), `the form supplies: ${supplies}`);
    const known = await page.locator('#formgen-data [data-section="Known before"] code').allTextContents();
    assert(known.includes('urlaubstage'), `known before: ${known}`);

    // A gateway has no data of its own: the panel says what to select.
    await selectShape(page, 'Gateway_approved');
    await page.waitForSelector('#formgen-data[data-state="idle"]:has-text("Select a user task")');
    await selectShape(page, 'Task_approve');
    await dataFor(page, 'Task_approve');
    page.off('request', watch);
    assert(asked.length === 0, `the picture asked the service: ${asked.join(', ')}`);
  });

  await test('a. generate a form for Task_approve with the builtin Worker', async () => {
    assert(await capability(page) === 'available', 'the capability probe did not find the builtin Worker');
    assert(await page.locator('#formgen-controls .formgen-generate').isVisible(), 'no "Generate form" button');
    assert(await page.locator('#formgen-controls .formgen-worker-row').isHidden(), 'a Worker picker is shown for a single Worker');

    await selectShape(page, 'Task_approve');
    await page.waitForSelector('#formgen-target:has-text("Task_approve")');
    await page.locator('#formgen-controls .formgen-brief').pressSequentially('Let the team lead approve or reject the request.');

    const request = page.waitForRequest('**/api/formgen/generate');
    await page.click('#formgen-controls .formgen-generate');
    const sent = (await request).postDataJSON();
    assert(sent.elementId === 'Task_approve', `elementId sent: ${sent.elementId}`);
    assert(sent.formId === 'approve-vacation', `formId sent: ${sent.formId}`);
    assert(sent.worker === 'builtin', `worker sent: ${sent.worker}`);
    assert(sent.description.startsWith('Let the team lead'), `description sent: ${sent.description}`);
    assert(sent.processXml.includes('id="Task_approve"'), 'processXml is not the open diagram');
    assert(!('schema' in sent), 'a first generation sent a schema');
    assert(Array.isArray(sent.forms) && sent.forms.length === 0, `forms sent with nothing held: ${JSON.stringify(sent.forms)}`);
    assert(Array.isArray(sent.decisions) && sent.decisions.length === 0, 'decisions sent from a page that opens none');

    await formLabel(page, 'Urlaubstage').waitFor();
    await formLabel(page, 'Approved').waitFor();
    await waitEditorFormId(page, 'approve-vacation');
    await page.waitForSelector('#formgen-controls .formgen-info:has-text("builtin")');
    await dataFor(page, 'Task_approve');
    const info = await page.textContent('#formgen-controls .formgen-info');
    assert(/outline/.test(info) && /1 attempt/.test(info) && /tokens/.test(info), `info line: ${info}`);
    assert(await page.textContent('#formgen-controls .formgen-error') === '', 'an error is shown after a good generation');
    assert(await page.locator('.fjs-powered-by').isVisible(), 'the bpmn.io watermark of the form editor is not visible');
    copyFileSync(await shot(page, '1-generated.png'), join(WEB, 'screenshot.png'));
  });

  await test('a. refine sends the form as it stands', async () => {
    await page.fill('#formgen-controls .formgen-brief', 'Also ask for a substitute.');
    const request = page.waitForRequest('**/api/formgen/generate');
    const response = page.waitForResponse('**/api/formgen/generate');
    await page.click('#formgen-controls .formgen-refine');
    const sent = (await request).postDataJSON();
    assert(sent.schema && Array.isArray(sent.schema.components), 'Refine sent no schema');
    assert(sent.schema.components.some((c) => c.label === 'Urlaubstage'), 'Refine sent a different form');
    assert((await response).status() === 200, `refine answered ${(await response).status()}`);
    await formLabel(page, 'Approved').waitFor();
    await page.waitForSelector('#formgen-controls .formgen-progress', { state: 'hidden' });
  });

  /** Generates for a step, presses "Use this form"; returns the two downloads and any question asked. */
  async function generateAndUse(elementId) {
    await selectShape(page, elementId);
    await page.waitForSelector(`#formgen-target:has-text("${elementId}")`);
    await page.fill('#formgen-controls .formgen-brief', 'A first draft, please.');
    const request = page.waitForRequest('**/api/formgen/generate');
    const response = page.waitForResponse('**/api/formgen/generate');
    await page.click('#formgen-controls .formgen-generate');
    const sent = (await request).postDataJSON();
    assert((await response).status() === 200, `generate for ${elementId} answered ${(await response).status()}`);
    await page.waitForSelector('#formgen-use:enabled');

    const downloads = [];
    const collect = (d) => downloads.push(d);
    const dialogs = [];
    const answer = (dialog) => { dialogs.push(dialog.message()); dialog.accept(); };
    page.on('download', collect);
    page.on('dialog', answer);
    await page.click('#formgen-use');
    const deadline = Date.now() + TIMEOUT;
    while (downloads.length < 2 && Date.now() < deadline) await page.waitForTimeout(100);
    page.off('download', collect);
    page.off('dialog', answer);
    assert(downloads.length === 2, `${downloads.length} download(s) instead of 2`);

    const files = Object.fromEntries(await Promise.all(downloads.map(async (d) =>
      [ d.suggestedFilename(), readFileSync(await d.path(), 'utf8') ])));
    const formName = Object.keys(files).find((n) => n.endsWith('.form'));
    assert(formName && files['vacation.bpmn'], `downloaded ${Object.keys(files).join(', ')}`);
    const form = JSON.parse(files[formName]);
    assert(formName === `${form.id}.form`, `${formName} does not carry the form's id ${form.id}`);
    const element = new RegExp(`<bpmn:(userTask|startEvent) id="${elementId}"[\\s\\S]*?</bpmn:\\1>`).exec(files['vacation.bpmn']);
    assert(element, `${elementId} is missing from the downloaded .bpmn`);
    const bindings = element[0].match(/<zeebe:formDefinition [^>]*>/g) || [];
    assert(bindings.length === 1 && bindings[0] === `<zeebe:formDefinition formId="${form.id}" />`,
      `${elementId} is not bound to ${form.id}: ${element[0]}`);
    await page.waitForSelector(`#formgen-target:has-text('bound to form "${form.id}"')`);

    // The binding is where the author models: the properties panel's Form group names the form.
    const formIdInput = page.locator('#properties [data-group-id="group-form"] input[name="formId"]');
    await page.waitForFunction((id) => {
      const input = document.querySelector('#properties [data-group-id="group-form"] input[name="formId"]');
      return input && input.value === id;
    }, form.id).catch(async () => { throw new Error(`the properties panel shows Form ID ${await formIdInput.inputValue()}`); });
    return { form, bpmn: files['vacation.bpmn'], dialogs, sent };
  }

  await test('a. "Use this form" binds the step and downloads the .form and the .bpmn', async () => {

    // Task_approve binds "approve-vacation" already: the binding is updated in place, nobody is asked.
    const approve = await generateAndUse('Task_approve');
    assert(approve.form.id === 'approve-vacation', `form id ${approve.form.id}`);

    // The editor's form is this step's own: it is not sent as one of the project's other forms.
    assert(!approve.sent.forms.some((f) => f.id === 'approve-vacation'), 'the target\'s own form was sent as a sibling');
    assert(approve.form.components.some((c) => c.label === 'Urlaubstage'), 'the .form is not the proposal');
    assert(approve.dialogs.length === 0, `asked: ${approve.dialogs.join(' | ')}`);

    // Task_inform has extensionElements (an ioMapping) but no form; Task_hr has no extensionElements at all.
    for (const id of [ 'Task_inform', 'Task_hr' ]) {
      const { form, bpmn, dialogs, sent } = await generateAndUse(id);

      // The forms the page holds go along: the approval form, used above, is one of the project's now.
      const sibling = sent.forms.find((f) => f.id === 'approve-vacation');
      assert(sibling && sibling.components.some((c) => c.label === 'Urlaubstage'), `forms sent for ${id}: ${sent.forms.map((f) => f.id)}`);
      assert(!sent.forms.some((f) => f.id === form.id), `${id}'s own form was sent as a sibling`);

      // Unbound steps get "<process>-<step>", the id the editor showed before any generation.
      assert(form.id === `vacation-request-${id}`, `${id} got form id ${form.id}`);
      assert(bpmn.includes('<zeebe:input source="=comment" target="comment" />'), 'Task_inform lost its ioMapping');

      // A fresh id that no other step binds: the page must not ask before binding it.
      assert(dialogs.length === 0, `${id}: form ${form.id}, asked: ${dialogs.join(' | ')}`);
    }
  });

  await test('a. Ctrl+Z in the diagram takes the binding back', async () => {
    await page.focus('#canvas .djs-container > svg'); // the modeller's keyboard listens on its canvas
    await page.keyboard.press('Control+z');
    await selectShape(page, 'Task_hr');
    await page.waitForSelector('#formgen-target:has-text("no form bound yet")');
    await selectShape(page, 'Task_inform');
    await page.waitForSelector('#formgen-target:has-text("bound to form")'); // only the last command undone
  });

  await test('a. a gateway has no form: Generate waits for a step that has one', async () => {
    await selectShape(page, 'Gateway_approved');
    await page.waitForSelector('#formgen-target:has-text("has no form")');
    assert(await page.locator('#formgen-controls .formgen-generate').isDisabled(), 'Generate is enabled for a gateway');
    await selectShape(page, 'StartEvent_request');
    await page.waitForSelector('#formgen-controls .formgen-generate:enabled');
  });

  await test('a. "Open…" opens the author\'s own .bpmn, and says why when it cannot', async () => {
    const own = join(TMP, 'my-process.bpmn');
    writeFileSync(own, readFileSync(join(WEB, 'src', 'vacation.bpmn'), 'utf8').replaceAll('Task_hr', 'Task_mine'));

    // With the .form of one of its steps: the page holds it as one of the project's forms and sends it along.
    const sibling = join(TMP, 'approve-vacation.form');
    writeFileSync(sibling, JSON.stringify({ id: 'approve-vacation', type: 'default', components: [
      { type: 'checkbox', key: 'approved', label: 'Genehmigt' } ] }));
    await page.setInputFiles('#open-bpmn-file', [ own, sibling ]);
    await page.waitForSelector('#process-name:has-text("my-process.bpmn")');
    await page.waitForSelector('#canvas [data-element-id="Task_mine"]');

    // The core read it for Task_mine's picture: `approved` comes from the opened form, which is listed as read.
    await selectShape(page, 'Task_mine');
    await page.locator('#formgen-data [data-section="Read"] code', { hasText: 'approve-vacation' }).waitFor();
    const known = await page.locator('#formgen-data [data-section="Known before"] li').allTextContents();
    assert(known.some((k) => k.startsWith('approved') && k.includes('approve-vacation')), `known before: ${known.join(' | ')}`);
    const request = page.waitForRequest('**/api/formgen/generate');
    await page.click('#formgen-controls .formgen-generate');
    const sent = (await request).postDataJSON();
    assert(sent.forms.length === 1 && sent.forms[0].components[0].label === 'Genehmigt',
      `forms sent after opening: ${JSON.stringify(sent.forms)}`); // the earlier process's forms are gone
    await page.waitForSelector('#formgen-controls .formgen-progress', { state: 'hidden' });
    const broken = join(TMP, 'broken.form');
    writeFileSync(broken, '{"components": []}');
    await page.setInputFiles('#open-bpmn-file', broken);
    await page.waitForSelector('#bpmn-error:has-text("broken.form")');
    await page.setInputFiles('#open-bpmn-file', resolve(WEB, '../fixtures/bpmn/not-bpmn.bpmn'));
    await page.waitForSelector('#bpmn-error:has-text("Could not open not-bpmn.bpmn")');
  });

  await test('b. an API error reaches the page as its sentence', async () => {
    const errorPage = await openPage(builtinUrl, 'error');
    assert(await capability(errorPage) === 'available', 'capability');
    await selectShape(errorPage, 'Task_approve');
    await errorPage.fill('#formgen-controls .formgen-brief', 'Bitte ein Formular für die Genehmigung. '.repeat(8)); // 320 characters
    await errorPage.waitForSelector('#formgen-controls .formgen-count.over');
    await errorPage.click('#formgen-controls .formgen-generate');
    await errorPage.waitForSelector('#formgen-controls .formgen-error:not(:empty)');
    const sentence = await errorPage.textContent('#formgen-controls .formgen-error');
    assert(/description/.test(sentence) && /limit/.test(sentence), `error shown: ${sentence}`);
    await shot(errorPage, '2-error.png');
    await errorPage.close();
  });

  await test('b. Cancel aborts a generation in flight and shows the elapsed seconds', async () => {
    const slowPage = await openPage(builtinUrl, 'cancel');
    assert(await capability(slowPage) === 'available', 'capability');

    // Hold the request so the progress indicator can be seen; the page aborts it before it goes out.
    await slowPage.route('**/api/formgen/generate', async (route) => {
      await new Promise((r) => setTimeout(r, 5_000).unref());
      await route.continue().catch(() => {});
    });
    await slowPage.click('#formgen-controls .formgen-generate');
    await slowPage.waitForSelector('#formgen-controls .formgen-progress:visible');
    await slowPage.locator('#formgen-controls .formgen-elapsed', { hasText: /working… [1-9]\d* s/ }).waitFor();
    assert(await slowPage.locator('#formgen-controls .formgen-generate').isDisabled(), 'Generate is enabled while a generation runs');
    await slowPage.click('#formgen-controls .formgen-cancel');
    await slowPage.waitForSelector('#formgen-controls .formgen-error:has-text("Cancelled")');
    await slowPage.waitForSelector('#formgen-controls .formgen-progress', { state: 'hidden' });
    assert(await slowPage.locator('#formgen-controls .formgen-generate').isEnabled(), 'Generate stays disabled after Cancel');
    await slowPage.unrouteAll({ behavior: 'ignoreErrors' });
    await slowPage.close();
  });

  await test('f. a streaming model: the editor shows drafts before the proposal, and Stop ends the generation', async () => {
    const model = await startStreamingModel();
    try {
      const url = await startServer('streaming', `[server]\nlisten = "127.0.0.1:0"\n[[workers]]\nname = "stream"\nprovider = "chat-completions"\nendpoint = "${model.url}/v1"\nmodel = "m"\nstructured_output = false\n`);
      const page = await openPage(url, 'streaming');
      assert(await capability(page) === 'available', 'capability');

      // the brief asks for the fields the model writes, which the process does not name
      await page.fill('#formgen-controls .formgen-brief', 'Four fields, please.');

      // Stop after the first draft: the model sees its connection closed, the editor is as it was
      await page.click('#formgen-controls .formgen-generate');
      await formLabel(page, 'Alpha field').waitFor();
      assert(await page.locator('#formgen-controls .formgen-progress').isVisible(), 'a draft arrived only with the proposal');
      await page.click('#formgen-controls .formgen-cancel');
      await page.waitForSelector('#formgen-controls .formgen-error:has-text("Cancelled")');
      const stopped = Date.now();
      while (model.closed === 0) {
        assert(Date.now() - stopped < 2_000, 'the model call stayed open after Stop');
        await new Promise((r) => setTimeout(r, 20));
      }
      assert(await page.locator('#form-editor .fjs-form-field-label', { hasText: 'Alpha field' }).count() === 0,
        'the draft stayed in the editor after Stop');

      // A whole run: at least two drafts while the progress line shows, then the proposal
      await page.click('#formgen-controls .formgen-generate');
      await formLabel(page, 'Alpha field').waitFor();
      assert(await page.locator('#formgen-controls .formgen-progress').isVisible(), 'the first draft came with the proposal');
      await formLabel(page, 'Beta field').waitFor();
      assert(await page.locator('#formgen-controls .formgen-progress').isVisible(), 'the second draft came with the proposal');
      assert(await page.evaluate(() => document.querySelector('#form-editor .fjs-form-container').inert), 'a draft could be edited');
      await page.waitForSelector('#formgen-controls .formgen-progress', { state: 'hidden' });
      await formLabel(page, 'Delta field').waitFor();
      assert(!(await page.evaluate(() => document.querySelector('#form-editor .fjs-form-container').inert)), 'the proposal is not editable');
      assert(/Proposal by stream/.test(await page.textContent('#formgen-controls .formgen-info')), 'no proposal shown');
      await page.close();
    } finally {
      await model.stop();
    }
  });

  await test('e. the Data panel draws every part of the core\'s picture, and the process\'s own findings', async () => {
    const own = join(TMP, 'literal.bpmn');

    // A condition that reads P1D, a duration without its quotes: a finding for the process itself.
    writeFileSync(own, readFileSync(join(WEB, 'src', 'vacation.bpmn'), 'utf8').replace('= urlaubstage &gt; 10', '= urlaubstage &gt; count(P1D)'));
    const approve = join(TMP, 'approve-vacation.form');
    writeFileSync(approve, JSON.stringify({ id: 'approve-vacation', type: 'default', components: [
      { type: 'checkbox', key: 'approved', label: 'Genehmigt' } ] }));
    const picturePage = await openPage(builtinUrl, 'picture');
    await capability(picturePage);
    await picturePage.setInputFiles('#open-bpmn-file', [ own, approve ]);
    await picturePage.waitForSelector('#process-name:has-text("literal.bpmn")');
    await dataFor(picturePage, ''); // nothing selected: the start form's picture
    // Two steps in quick succession: the panel ends on the last one.
    await selectShape(picturePage, 'Task_approve');
    await selectShape(picturePage, 'Task_hr');
    await dataFor(picturePage, 'Task_hr');
    assert(await picturePage.getAttribute('#formgen-data', 'data-step') === 'present', 'the picture is not shown');
    const entries = async (title) => picturePage.locator(`#formgen-data [data-section="${title}"] li`).evaluateAll((lis) =>
      lis.map((li) => [ li.querySelector('code').textContent, (li.querySelector('.muted') || {}).textContent || '' ]));
    const known = await entries('Known before');
    assert(known.some(([ name, from ]) => name === 'approved' && /approve-vacation/.test(from)), `known before: ${JSON.stringify(known)}`);
    await selectShape(picturePage, 'Task_approve');
    await dataFor(picturePage, 'Task_approve');
    const supplies = await entries('The form supplies');
    assert(supplies.some(([ name, why ]) => name === 'approved' && why), `to supply: ${JSON.stringify(supplies)}`);
    const decided = await entries('Decided on');
    assert(decided.some(([ name, conditions ]) => name === 'approved' && /approved/.test(conditions)), `decided on: ${JSON.stringify(decided)}`);
    await selectShape(picturePage, 'Task_hr');
    await dataFor(picturePage, 'Task_hr');
    const read = await picturePage.locator('#formgen-data [data-section="Read"] code').allTextContents();
    assert(read.includes('approve-vacation'), `read: ${read.join(', ')}`);
    await shot(picturePage, '5-data-panel.png');
    await picturePage.close();
  });

  await test('a. "Use this form" asks before binding a form id another step binds', async () => {

    // A proposal carrying another step's form id (an author can also type one into the editor): the answer is
    // canned, the page's question is what is tested.
    const askPage = await openPage(builtinUrl, 'ask');
    await askPage.route('**/api/formgen/generate', (route) => route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        schema: { id: 'approve-vacation', type: 'default', components: [ { type: 'textfield', key: 'note', label: 'Note' } ] },
        worker: 'builtin', model: 'outline', processId: 'vacation-request', elementId: 'Task_hr',
        processSource: 'request', warnings: [], usage: { inputTokens: 0, outputTokens: 0 }, attempts: 1,
      }),
    }));
    assert(await capability(askPage) === 'available', 'capability');
    await selectShape(askPage, 'Task_hr');
    await askPage.click('#formgen-controls .formgen-generate');
    await askPage.waitForSelector('#formgen-use:enabled');
    const dialogs = [];
    const downloads = [];
    askPage.on('dialog', (dialog) => { dialogs.push(dialog.message()); dialog.dismiss(); });
    askPage.on('download', (d) => downloads.push(d));
    await askPage.click('#formgen-use');
    await askPage.waitForTimeout(500);
    assert(dialogs.length === 1 && dialogs[0].includes('already bound to "Antrag prüfen" (Task_approve)'), `asked: ${dialogs.join(' | ')}`);
    assert(downloads.length === 0, 'downloaded although the author cancelled');
    await askPage.waitForSelector('#formgen-target:has-text("no form bound yet")');
    await askPage.unrouteAll({ behavior: 'ignoreErrors' });
    await askPage.close();
  });

  await test('c. a service without a Worker: the builtin drafts in the browser, and says so', async () => {
    const noWorker = await openPage(noWorkerUrl, 'no-worker');
    const generated = [];
    noWorker.on('request', (r) => { if (r.url().includes('/api/formgen/generate')) generated.push(r.url()); });
    assert(await capability(noWorker) === 'unavailable', 'capability did not say unavailable');
    assert(/no model Worker/.test(await noWorker.textContent('#formgen-controls .formgen-status')), 'the panel does not say why');
    await selectShape(noWorker, 'Task_approve');
    await noWorker.click('#formgen-controls .formgen-generate');
    await noWorker.waitForSelector('#formgen-controls .formgen-info:has-text("drafted in this browser")');
    await formLabel(noWorker, 'Approved').waitFor();
    assert(generated.length === 0, `generate went to the service: ${generated.join(', ')}`);
    await shot(noWorker, '3-no-worker.png');
    await noWorker.close();
  });

  await test('e. a 401 asks for a token; several Workers get a picker', async () => {
    const tokens = await openPage(tokensUrl, 'tokens');
    assert(await capability(tokens) === 'unauthorized', 'capability did not say unauthorized');

    // Before the sign-in the builtin drafts in the browser: no Worker picker, the panel says why.
    assert(await tokens.locator('#formgen-controls .formgen-worker-row').isHidden(), 'a Worker picker before sign-in');
    assert(/builtin, in this browser/.test(await tokens.textContent('#formgen-controls .formgen-status')), 'the panel does not say why');
    await tokens.fill('#formgen-token', TOKEN);
    const probe = tokens.waitForRequest('**/api/formgen/capability');
    await tokens.click('#formgen-auth button[type="submit"]');
    await tokens.waitForSelector('#formgen[data-capability="available"]');
    assert((await probe).headers().authorization === `Bearer ${TOKEN}`, 'the probe went without the token');
    assert(await tokens.locator('#formgen-auth').isHidden(), 'the token input stays after sign-in');
    const options = await tokens.locator('#formgen-controls .formgen-worker option').allTextContents();
    assert(options.join('|') === 'builtin (outline)|drafts (outline-2)', `picker: ${options.join('|')}`);
    await tokens.selectOption('#formgen-controls .formgen-worker', 'drafts');
    const request = tokens.waitForRequest('**/api/formgen/generate');
    await tokens.click('#formgen-controls .formgen-generate');
    assert((await request).headers().authorization === `Bearer ${TOKEN}`, 'generate went without the token');
    await tokens.waitForSelector('#formgen-controls .formgen-info:has-text("drafts (outline-2)")');
    await shot(tokens, '4-tokens-picker.png');
    await tokens.close();
  });

  await moduleTests({
    test, openPage, assert, log, builtinUrl, tmp: TMP, shot, keep, sha256, artifacts: ARTIFACTS,
  });
  await offlineTests({ test, openPage, assert, log, tmp: TMP, shot });

  await test('no request left 127.0.0.1 and no page threw', async () => {
    assert(externalRequests.length === 0, `requests to other hosts: ${externalRequests.join(', ')}`);
    assert(pageErrors.length === 0, `uncaught page errors: ${pageErrors.join('; ')}`);
  });
}

try {
  await main();
} catch (err) {
  failed += 1;
  log(`FAIL setup: ${err.stack || err}`);
} finally {
  log('closing the browser and the servers');
  if (context) await context.close().catch(() => {});
  log('browser closed');
  await stopAll();
  log('servers stopped');
  rmSync(TMP, { recursive: true, force: true });
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
