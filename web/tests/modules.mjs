// The browser tests of the packages outside formgen's page: @formgen/bpmn-js in a plain bpmn-js modeller
// with the properties panel, @formgen/form-js in a plain form-js editor, and the Camunda Modeler plugin loaded
// the way the Modeler loads it (its index.js through a copy of the Modeler's plugin loader, its client script
// into a stand-in for the Modeler's client). The harness pages (tests/harness/) are served by formgen itself
// (its web_dir), so they talk to formgen from its own origin like the page does, and to no other host.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { buildHarness } from './harness/build.mjs';
import { WEB, builtinConfig, modelConfig, startFormgen, startStreamingModel } from './support/formgen.mjs';

const PLUGIN = join(WEB, 'packages', 'camunda-modeler-plugin');

/** A proposal as formgen's plain call answers it, with the findings the contract check adds. */
const CANNED_PROPOSAL = {
  schema: {
    id: 'Form_canned', type: 'default', schemaVersion: 19, components: [
      { type: 'number', key: 'amount', label: 'Amount', id: 'Field_amount' },
      { type: 'textfield', key: 'note', label: 'Note', id: 'Field_note' },
    ],
  },
  worker: 'builtin', model: 'outline', processId: '', elementId: '', processSource: '', warnings: [],
  usage: { inputTokens: 0, outputTokens: 0 }, attempts: 1,
  findings: [
    { code: 'type_conflict', severity: 'error', key: 'amount', label: 'Amount', elementId: 'Gateway_1',
      expression: 'amount > "1000"', message: 'The process compares amount with a string; the form asks for a number.' },
    { code: 'missing_supply', severity: 'error', key: null, label: null, elementId: 'Flow_yes',
      expression: '= approved', message: 'No field supplies approved, which the condition of Flow_yes reads.' },
  ],
};

/**
 * Installs the plugin as a Modeler user would (the files its package.json ships, in a `plugins/formgen`
 * folder) and loads it as the Modeler's plugin loader does: every `plugins/<name>/index.js` is required, must
 * name itself, and its `script` and `style` must exist relative to its folder.
 */
export function installAndLoadPlugin(tmp) {
  const plugins = join(tmp, 'resources', 'plugins');
  const folder = join(plugins, 'formgen');
  mkdirSync(folder, { recursive: true });
  const { files } = JSON.parse(readFileSync(join(PLUGIN, 'package.json'), 'utf8'));
  for (const file of files) cpSync(join(PLUGIN, file), join(folder, file), { recursive: true });
  const found = readdirSync(plugins).map((name) => join(plugins, name, 'index.js')).filter(existsSync);
  const require = createRequire(join(tmp, 'loader.js'));
  const loaded = found.map((path) => {
    const { name, script, style, menu } = require(path);
    const base = join(path, '..');
    return { name, base, script: script && join(base, script), style: style && join(base, style), menu };
  });
  return { folder, loaded };
}

/**
 * @param {object} t what the browser test lends: `test`, `openPage`, `assert`, `log`, `builtinUrl`, `tmp`,
 *   `shot(page, name, options)` and `keep(path, name)` (a screenshot for the README)
 */
export async function moduleTests(t) {
  const { test, openPage, assert, tmp } = t;
  const harness = await buildHarness();
  let installed = null;

  // formgen serving the harness pages (web_dir), with the builtin Worker
  const served = await startFormgen('harness', builtinConfig(), { env: { FORMGEN_WEB_DIR: harness }, logDir: t.artifacts });
  const harnessUrl = served.url;

  /** Opens a harness page served by this formgen; `settings`: settings.json's values for the Modeler stand-in. */
  async function openHarness(url, name, path, settings) {
    const page = await openPage('about:blank', name);
    if (settings) await page.addInitScript((values) => { window.__settings = values; }, settings);
    await page.goto(`${url}/${path}`);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }

  const xml = async (page) => page.evaluate(async () => (await window.modeler.saveXML({ format: true })).xml);
  const elementXml = (text, id) => (new RegExp(`<bpmn:userTask id="${id}"[\\s\\S]*?</bpmn:userTask>`).exec(text) || [ '' ])[0];
  const select = async (page, id) => {
    await page.locator(`#canvas .djs-element[data-element-id="${id}"]`).click();
    await page.locator('#properties .bio-properties-panel-header-label').first().waitFor();
  };
  const undo = async (page) => {
    await page.focus('#canvas .djs-container > svg');
    await page.keyboard.press('Control+z');
  };

  await test('bpmn-js module: the Form group of a user task shows "Generate form" and the step\'s data picture', async () => {
    const page = await openHarness(harnessUrl, 'bpmn-module', 'bpmn.html');
    await select(page, 'Task_approve');
    const form = page.locator('#properties [data-group-id="group-form"]');
    await form.locator('.formgen-generate').waitFor();
    await form.locator('[data-entry-id="formgen-data"][data-state="ready"]').waitFor();
    assert(await form.locator('[data-entry-id="formgen-data"]').getAttribute('data-step') === 'present', 'no picture');
    const supplies = await form.locator('[data-section="The form supplies"] code').allTextContents();
    assert(supplies.includes('approved') && supplies.includes('comment'), `the form supplies: ${supplies}`);
    const known = await form.locator('[data-section="Known before"] code').allTextContents();
    assert(known.includes('urlaubstage'), `known before: ${known}`);

    // A gateway has no Form group: nothing of formgen's is drawn for it.
    await select(page, 'Gateway_approved');
    assert(await page.locator('#properties .formgen-entry').count() === 0, 'formgen entries on a gateway');
    await page.close();
  });

  await test('bpmn-js module: "Generate form" binds the step to the linked form in one undoable command', async () => {
    const page = await openHarness(harnessUrl, 'bpmn-linked', 'bpmn.html');
    await select(page, 'Task_hr');
    const form = page.locator('#properties [data-group-id="group-form"]');
    await form.locator('.formgen-brief').fill('Tell HR about the approved vacation.');
    const request = page.waitForRequest('**/api/formgen/generate');
    await form.locator('.formgen-generate').click();
    const sent = (await request).postDataJSON();
    assert(sent.elementId === 'Task_hr' && sent.formId === 'vacation-request-Task_hr', `sent: ${sent.elementId} ${sent.formId}`);
    assert(sent.description === 'Tell HR about the approved vacation.' && sent.processXml.includes('Task_hr'), 'request');
    await form.locator('.formgen-result', { hasText: 'bound to form "vacation-request-Task_hr"' }).waitFor();
    assert(await form.locator('.formgen-download').isVisible(), 'no download of the .form');
    const bound = elementXml(await xml(page), 'Task_hr');
    assert(bound.includes('<zeebe:formDefinition formId="vacation-request-Task_hr" />'), `Task_hr: ${bound}`);
    await form.locator('[data-entry-id="formgen-data"][data-state="ready"]').waitFor();
    await t.keep(await t.shot(page, 'bpmn-module.png', { clip: await page.locator('#properties').boundingBox() }), 'screenshot-bpmn-js.png');
    await undo(page);
    await page.waitForFunction(async () => !(await window.modeler.saveXML()).xml.match(/formId="vacation-request-Task_hr"/));
    await page.close();
  });

  await test('bpmn-js module: an embedded binding writes zeebe:userTaskForm and its formKey; one undo removes both', async () => {
    const page = await openHarness(harnessUrl, 'bpmn-embedded', 'bpmn.html?binding=embedded');
    await select(page, 'Task_hr');
    const form = page.locator('#properties [data-group-id="group-form"]');
    await form.locator('.formgen-generate').click();
    await form.locator('.formgen-result', { hasText: 'embedded in the process' }).waitFor();
    const text = await xml(page);
    const embedded = /<zeebe:userTaskForm id="(UserTaskForm_\w+)">([\s\S]*?)<\/zeebe:userTaskForm>/.exec(text);
    assert(embedded, 'no zeebe:userTaskForm in the process');
    assert(elementXml(text, 'Task_hr').includes(`<zeebe:formDefinition formKey="camunda-forms:bpmn:${embedded[1]}" />`),
      `Task_hr: ${elementXml(text, 'Task_hr')}`);
    const body = JSON.parse(embedded[2].replace(/&#34;|&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    assert(body.id === 'vacation-request-Task_hr' && body.components.length > 0, `embedded form: ${embedded[2].slice(0, 200)}`);
    await undo(page);
    await page.waitForFunction(async () => {
      const { xml: now } = await window.modeler.saveXML();
      return !/userTaskForm/.test(now) && !/camunda-forms:bpmn:/.test(now);
    });
    await page.close();
  });

  await test('bpmn-js module: the core\'s findings for the bound form are listed in its Form group, and the service is not asked', async () => {
    const page = await openHarness(harnessUrl, 'bpmn-findings', 'bpmn.html');
    const asked = [];
    page.on('request', (r) => { if (/\/api\/formgen\/(validate|outline)/.test(r.url())) asked.push(r.url()); });

    // The host holds the linked form "approve-vacation" (it opened its .form): the module checks it.
    await page.evaluate(() => window.modeler.get('formgen').hold({ id: 'approve-vacation', type: 'default',
      components: [ { type: 'number', key: 'amount', label: 'Amount' }, { type: 'textfield', key: 'password', label: 'Password' } ] }));
    await select(page, 'Task_approve');
    const form = page.locator('#properties [data-group-id="group-form"]');
    await form.locator('.formgen-findings li').first().waitFor();
    const items = await form.locator('.formgen-findings li').evaluateAll((lis) => lis.map((li) => [ li.dataset.code, li.textContent ]));
    assert(items.some(([ code, text ]) => code === 'missing_supply' && text.startsWith('approved: ')), JSON.stringify(items));
    assert(items.some(([ code, text ]) => code === 'secret_field' && text.startsWith('password: ')), JSON.stringify(items));
    const titles = await form.locator('.formgen-findings-box h4').allTextContents();
    assert(titles.includes('Findings for form "approve-vacation"'), `titles: ${JSON.stringify(titles)}`);
    assert(asked.length === 0, `asked the service: ${asked.join(', ')}`);
    await page.close();
  });

  await test('bpmn-js module: the process\'s own findings from the core\'s outline are listed under the data picture', async () => {
    const page = await openHarness(harnessUrl, 'bpmn-process-findings', 'bpmn.html');

    // A condition reading P1D, a duration without its quotes.
    await page.evaluate(async () => {
      const { xml: now } = await window.modeler.saveXML();
      await window.modeler.importXML(now.replace('= urlaubstage &gt; 10', '= urlaubstage &gt; count(P1D)'));
    });
    await select(page, 'Task_approve');
    const form = page.locator('#properties [data-group-id="group-form"]');
    await form.locator('.formgen-findings li[data-code="unquoted_literal"]').waitFor();
    const titles = await form.locator('.formgen-findings-box h4').allTextContents();
    assert(titles.includes('Findings for the process'), `titles: ${JSON.stringify(titles)}`);
    await page.close();
  });

  await test('form-js module: Generate in a plain form editor shows the proposal and draws its findings by their fields', async () => {
    const page = await openHarness(harnessUrl, 'form-module', 'form.html');
    const asked = [];
    await page.route('**/api/formgen/generate', (route) => {
      asked.push(route.request().postDataJSON());
      return route.fulfill({ contentType: 'application/json', body: JSON.stringify(CANNED_PROPOSAL) });
    });
    const panel = page.locator('.fjs-palette-footer .formgen-panel[data-capability="available"]');
    await panel.waitFor();
    assert(await panel.locator('.formgen-refine').isDisabled(), 'Refine is enabled before a proposal');
    await panel.locator('.formgen-brief').fill('An amount and a note.');
    await panel.locator('.formgen-generate').click();
    await page.locator('.fjs-form-field-label', { hasText: 'Amount' }).first().waitFor();
    assert(asked[0].description === 'An amount and a note.' && asked[0].formId === 'my-form' && !asked[0].processXml,
      `asked: ${JSON.stringify(asked[0])}`);
    const badge = page.locator('.fjs-form-container [data-id="Field_amount"] .formgen-badge[data-key="amount"]');
    await badge.waitFor();
    assert(/compares amount with a string/.test(await badge.textContent()), await badge.textContent());
    assert(await page.locator('.fjs-form-container [data-id="Field_note"] .formgen-badge').count() === 0, 'a badge on a field without findings');
    const forForm = await panel.locator('.formgen-findings-form li').allTextContents();
    assert(forForm.length === 1 && /No field supplies approved/.test(forForm[0]), `for the form: ${forForm}`);

    // Refine sends the form as it stands.
    await panel.locator('.formgen-refine').click();
    await page.waitForFunction((n) => window.formEditor.get('formgenAssistant').busy === false && n, 1);
    await page.locator('.fjs-form-field-label', { hasText: 'Amount' }).first().waitFor();
    const refined = asked.at(-1);
    assert(asked.length === 2 && refined.schema && refined.schema.components.some((c) => c.key === 'note'), 'Refine sent no schema');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.close();
  });

  await test('form-js module: a streaming model\'s drafts show while it writes, and Cancel puts the author\'s form back', async () => {
    const model = await startStreamingModel({ delayMs: 120 });
    const server = await startFormgen('form-streaming', modelConfig(model.url),
      { env: { FORMGEN_WEB_DIR: harness }, logDir: t.artifacts });
    try {
      const page = await openHarness(server.url, 'form-streaming', 'form.html');
      const panel = page.locator('.fjs-palette-footer .formgen-panel[data-capability="available"]');
      await panel.waitFor();
      await panel.locator('.formgen-brief').fill('Four fields, please.');
      await panel.locator('.formgen-generate').click();
      await page.locator('.fjs-form-field-label', { hasText: 'Beta field' }).first().waitFor();
      assert(await panel.locator('.formgen-progress').isVisible(), 'the drafts came with the proposal');
      assert(await page.evaluate(() => document.querySelector('.fjs-form-container').inert), 'a draft could be edited');
      await t.keep(await t.shot(page, 'form-module.png'), 'screenshot-form-js.png');
      await panel.locator('.formgen-cancel').click();
      await panel.locator('.formgen-error', { hasText: 'Cancelled' }).waitFor();
      await page.locator('.fjs-form-field-label', { hasText: 'My own field' }).first().waitFor();
      assert(await page.locator('.fjs-form-field-label', { hasText: 'Beta field' }).count() === 0, 'the draft stayed after Cancel');
      assert(!(await page.evaluate(() => document.querySelector('.fjs-form-container').inert)), 'the author\'s form stays read-only');
      const stopped = Date.now();
      while (model.closed === 0) {
        assert(Date.now() - stopped < 5_000, 'the model call stayed open after Cancel');
        await new Promise((r) => setTimeout(r, 20));
      }
      await page.close();
    } finally {
      await server.stop();
      await model.stop();
    }
  });

  await test('Camunda Modeler plugin: index.js loads as the Modeler\'s plugin loader loads it', async () => {
    installed = installAndLoadPlugin(tmp);

    // The Modeler stand-in loads the installed copy, served beside it.
    cpSync(installed.folder, join(harness, 'plugins', 'formgen'), { recursive: true });
    assert(installed.loaded.length === 1, `plugins found: ${installed.loaded.length}`);
    const [ plugin ] = installed.loaded;
    assert(plugin.name === 'formgen', `name: ${plugin.name}`);
    assert(plugin.script && existsSync(plugin.script), `no client script at ${plugin.script}`);
    assert(plugin.style && existsSync(plugin.style), `no style at ${plugin.style}`);
    assert(!plugin.menu, 'the plugin has no menu');
    const script = readFileSync(plugin.script, 'utf8');
    assert(!/from\s*["']|^import /m.test(script), 'the client script is not a classic script');

    // The properties panel and its preact come from the Modeler, not from the bundle.
    assert(script.includes('window.vendor') && !script.includes('preact/hooks/dist'), 'the bundle carries its own properties panel');
  });

  await test('Camunda Modeler plugin: the client script registers its settings and the bpmn-js module; the Form group follows the URL and token settings', async () => {
    assert(installed, 'the plugin is not installed (the test before failed)');

    // settings.json's values, as the Modeler would have read them
    const modeler = await openHarness(harnessUrl, 'modeler-plugin', 'modeler.html', { 'formgen.url': harnessUrl });
    const types = await modeler.evaluate(() => window.plugins.map((p) => p.type));
    assert(types.includes('client') && types.includes('bpmn.cloud.modeler.additionalModules'), `registered: ${types}`);
    const keys = await modeler.evaluate(() => Object.keys(window.settings._schema));
    assert([ 'formgen.url', 'formgen.token', 'formgen.binding' ].every((k) => keys.includes(k)), `settings: ${keys}`);
    await select(modeler, 'Task_hr');
    const form = modeler.locator('#properties [data-group-id="group-form"]');
    await form.locator('.formgen-generate').click();
    await form.locator('.formgen-result', { hasText: 'bound to form "vacation-request-Task_hr"' }).waitFor();
    await form.locator('[data-entry-id="formgen-data"][data-state="ready"]').waitFor();
    await t.keep(await t.shot(modeler, 'modeler-plugin.png'), 'screenshot-modeler-plugin.png');

    // Another formgen, with tokens (and this origin among its cors_origins): a 401 until the token is set.
    const guarded = await startFormgen('plugin-tokens', `[server]
listen = "127.0.0.1:0"
cors_origins = ["${harnessUrl}"]
[auth]
mode = "tokens"
[[auth.principals]]
name = "ana"
token_sha256 = "${t.sha256('plugin-token')}"
[[workers]]
name = "builtin"
provider = "builtin"
`, { logDir: t.artifacts });
    try {
      await modeler.evaluate((url) => window.settings.set({ 'formgen.url': url }), guarded.url);
      await form.locator('.formgen-generate-entry[data-capability="unauthorized"]').waitFor();

      // Until the token is set the builtin drafts in the Modeler; the entry says why there is no model.
      await form.locator('.formgen-capability', { hasText: 'builtin, in this browser' }).waitFor();
      const probe = modeler.waitForRequest(`${guarded.url}/api/formgen/capability`);
      await modeler.evaluate(() => window.settings.set({ 'formgen.token': 'plugin-token' }));
      assert((await probe).headers().authorization === 'Bearer plugin-token', 'the token setting was not sent');
      await form.locator('.formgen-generate-entry[data-capability="available"] .formgen-generate').waitFor();
    } finally {
      await guarded.stop();
    }
    await modeler.close();
  });
  await served.stop();
}
