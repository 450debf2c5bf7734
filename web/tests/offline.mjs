// The editors with no formgen service at all: the harness pages, the Camunda Modeler plugin's bundle and
// formgen's own page, each served by a plain static file server (tests/support/static.mjs), so nothing
// could answer /api/formgen/… even if asked. formgen's core (WebAssembly) draws the data picture, checks
// the form as the author edits and drafts with the builtin.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { HARNESS } from './harness/build.mjs';
import { installAndLoadPlugin } from './modules.mjs';
import { WEB } from './support/formgen.mjs';
import { serveStatic } from './support/static.mjs';

const FINDING_WITHIN_MS = 1_000; // the "a finding within about a second of the edit"

/**
 * @param {object} t what the browser test lends: `test`, `openPage`, `assert`, `log`, `tmp`, `shot`
 */
export async function offlineTests(t) {
  const { test, openPage, assert, log } = t;
  const harness = await serveStatic(HARNESS);
  const page = await serveStatic(join(WEB, 'dist'));
  const api = (server) => server.requests.filter((path) => path.startsWith('/api/'));

  async function openHarness(path, name, settings) {
    const opened = await openPage('about:blank', name);
    if (settings) await opened.addInitScript((values) => { window.__settings = values; }, settings);
    await opened.goto(`${harness.url}/${path}`);
    await opened.waitForSelector('body[data-ready="true"]');
    return opened;
  }

  try {
    await test('no server: the form-js module shows a finding beside the form within a second of an edit that breaks the contract', async () => {
      const form = await openHarness('form.html?offline&step', 'offline-form');
      const panel = form.locator('.fjs-palette-footer .formgen-panel[data-capability="offline"]');
      await panel.locator('.formgen-generate').waitFor();

      // The author renames the field the gateway after the step reads: `approved` is then supplied by nobody.
      await form.locator('.fjs-form-container [data-id="Field_approved"]').click();
      await form.locator('.fjs-properties-container [data-group-id="group-general"] .bio-properties-panel-group-header').click();
      const key = form.locator('.fjs-properties-container #bio-properties-panel-key');
      await key.waitFor();

      // Timed in the page: from the author's last keystroke to the finding in the DOM.
      const timing = form.evaluate(() => new Promise((resolve) => {
        let typed = 0;
        document.querySelector('#bio-properties-panel-key').addEventListener('input', () => { typed = performance.now(); });
        const seen = () => document.querySelector('.formgen-findings-form li[data-code="missing_supply"][data-key="approved"]');
        new MutationObserver((_, observer) => {
          if (typed && seen()) {
            observer.disconnect();
            resolve(performance.now() - typed);
          }
        }).observe(document.body, { childList: true, subtree: true });
      }));
      await key.fill('decision');
      const took = Math.round(await timing);
      log(`  the finding showed ${took} ms after the edit (the properties panel waits 300 ms, then the check 300 ms)`);
      assert(took <= FINDING_WITHIN_MS, `the finding took ${took} ms`);
      await t.shot(form, 'offline-form-finding.png');

      // A finding on a field is drawn in the field: a key that asks for a secret.
      await form.locator('.fjs-form-container [data-id="Field_comment"]').click();
      await key.fill('password');
      await form.locator('.fjs-form-container [data-id="Field_comment"] .formgen-badge li[data-code="secret_field"]').waitFor();

      // Undo both: the contract holds again, and the panel says so.
      await form.evaluate(() => {
        const commandStack = window.formEditor.get('commandStack');
        while (commandStack.canUndo()) commandStack.undo();
      });
      await panel.locator('.formgen-findings-title', { hasText: 'No findings' }).waitFor();
      assert(await form.locator('.formgen-badge').count() === 0, 'a badge stays after the undo');

      // Check says so in a sentence, at once.
      await panel.locator('.formgen-check').click();
      await panel.locator('.formgen-info', { hasText: 'Checked form "approve-vacation"' }).waitFor();
      await form.close();
    });

    await test('no server: Generate in the form-js module drafts with the builtin in the browser', async () => {
      const form = await openHarness('form.html?offline&step', 'offline-generate');
      const panel = form.locator('.fjs-palette-footer .formgen-panel[data-capability="offline"]');
      await panel.locator('.formgen-generate').click();
      await panel.locator('.formgen-info', { hasText: 'drafted in this browser' }).waitFor();
      await form.locator('.fjs-form-field-label', { hasText: 'Urlaubstage' }).first().waitFor();
      await panel.locator('.formgen-findings-title', { hasText: 'No findings' }).waitFor();

      // Without a process the builtin has nothing to draft from: it says so.
      const plain = await openHarness('form.html?offline', 'offline-plain');
      const plainPanel = plain.locator('.fjs-palette-footer .formgen-panel[data-capability="offline"]');
      await plainPanel.locator('.formgen-generate').click();
      await plainPanel.locator('.formgen-error', { hasText: 'drafts a form from its process' }).waitFor();
      await plain.locator('.fjs-form-field-label', { hasText: 'My own field' }).first().waitFor();
      await plain.close();
      await form.close();
    });

    await test('no server: the bpmn-js module draws the data picture, checks the bound form and generates', async () => {
      const modeler = await openHarness('bpmn.html?offline', 'offline-bpmn');
      const select = async (id) => {
        await modeler.locator(`#canvas .djs-element[data-element-id="${id}"]`).click();
        await modeler.locator('#properties .bio-properties-panel-header-label').first().waitFor();
      };
      const group = modeler.locator('#properties [data-group-id="group-form"]');
      await select('Task_approve');
      await group.locator('[data-entry-id="formgen-data"][data-state="ready"][data-step="present"]').waitFor();
      const supplies = await group.locator('[data-section="The form supplies"] code').allTextContents();
      assert(supplies.includes('approved') && supplies.includes('comment'), `the form supplies: ${supplies}`);

      // A held form for the step that lacks `approved`: the core's findings, in the Form group.
      await modeler.evaluate(() => window.modeler.get('formgen').hold({ id: 'approve-vacation', type: 'default',
        components: [ { type: 'number', key: 'amount', label: 'Amount' } ] }));
      await group.locator('.formgen-findings li[data-code="missing_supply"][data-key="approved"]').waitFor();

      await select('Task_hr');
      await group.locator('.formgen-brief').fill('Tell HR.');
      await group.locator('.formgen-generate').click();
      await group.locator('.formgen-result', { hasText: 'drafted in this browser' }).waitFor();
      assert(/bound to form "vacation-request-Task_hr"/.test(await group.locator('.formgen-result').textContent()), 'not bound');
      await group.locator('.formgen-findings-box', { hasText: 'supplies what the process needs' }).waitFor();
      await modeler.close();
    });

    await test('no server: the Camunda Modeler plugin works from its folder, its core inside its script', async () => {
      const { folder } = installAndLoadPlugin(join(t.tmp, 'offline-plugin'));
      rmSync(join(HARNESS, 'plugins', 'formgen'), { recursive: true, force: true });
      cpSync(folder, join(HARNESS, 'plugins', 'formgen'), { recursive: true });
      const before = harness.requests.length;
      const modeler = await openHarness('modeler.html', 'offline-plugin', {}); // settings.json without a URL
      const group = modeler.locator('#properties [data-group-id="group-form"]');
      await modeler.locator('#canvas .djs-element[data-element-id="Task_hr"]').click();
      await group.locator('[data-entry-id="formgen-data"][data-state="ready"]').waitFor();
      await group.locator('.formgen-generate').click();
      await group.locator('.formgen-result', { hasText: 'bound to form "vacation-request-Task_hr"' }).waitFor();
      const asked = harness.requests.slice(before);
      assert(!asked.some((path) => path.endsWith('.wasm')), `the plugin fetched its core: ${asked.join(', ')}`);
      assert(!asked.some((path) => path.startsWith('/api/')), `the plugin asked a service: ${asked.join(', ')}`);
      await modeler.close();
    });

    await test('no server: formgen\'s page, served as plain files, draws the picture and drafts with the builtin', async () => {
      const opened = await openPage(page.url, 'offline-page');
      await opened.waitForSelector('#formgen:not([data-capability="pending"])');
      await opened.locator('#canvas .djs-element[data-element-id="Task_approve"]').click();
      await opened.locator('#formgen-data-step', { hasText: '(Task_approve)' }).waitFor();
      await opened.waitForSelector('#formgen-data[data-state="ready"][data-step="present"]');
      await opened.click('#formgen-controls .formgen-generate');
      await opened.locator('#formgen-controls .formgen-info', { hasText: 'drafted in this browser' }).waitFor();
      await opened.locator('#form-editor .fjs-form-field-label', { hasText: 'Urlaubstage' }).first().waitFor();
      const asked = api(page);
      assert(asked.every((path) => path === '/api/formgen/capability'), `the page asked: ${asked.join(', ')}`);
      await opened.close();
    });
  } finally {
    await harness.stop();
    await page.stop();
  }
}
