// The two entries formgen adds to the properties panel's Form group, as plain DOM kept in step with the
// `formgen` service through the event bus: "Generate form" (with a brief, the Worker when the service
// offers several, progress and Cancel; the builtin in the browser without a service) and the step's data
// picture with the findings for its bound form.
import { download } from './binding.js';
import { el, errorLine, findingList, muted, renderDataPicture } from './data-picture.js';
import { targetKey } from './target.js';

/** @typedef {import('./Formgen.js').default} Formgen */

/**
 * @param {HTMLElement} container
 * @param {Formgen} formgen
 * @param {any} eventBus
 * @param {any} element
 * @returns {() => void} unmounts
 */
export function mountGenerate(container, formgen, eventBus, element) {
  const target = formgen.targetOf(element);
  const key = targetKey(target);
  container.classList.add('formgen-generate-entry');
  const brief = /** @type {HTMLTextAreaElement} */ (el('textarea', 'formgen-brief'));
  brief.rows = 2;
  brief.placeholder = 'What should the form ask for? (optional)';
  brief.setAttribute('aria-label', 'Brief for formgen');
  const worker = /** @type {HTMLSelectElement} */ (el('select', 'formgen-worker'));
  worker.setAttribute('aria-label', 'Worker');
  const button = /** @type {HTMLButtonElement} */ (el('button', 'formgen-generate bio-properties-panel-add-entry', 'Generate form'));
  button.type = 'button';
  const cancel = /** @type {HTMLButtonElement} */ (el('button', 'formgen-cancel', 'Cancel'));
  cancel.type = 'button';
  const status = el('div', 'formgen-status');
  status.setAttribute('role', 'status');
  const note = muted(''); // why models are not offered, when a service is configured
  note.classList.add('formgen-capability');
  const row = el('div', 'formgen-row');
  row.append(button, cancel);
  let timer = /** @type {ReturnType<typeof setInterval> | undefined} */ (undefined);

  button.addEventListener('click', () => {
    formgen.generate({ target: formgen.targetOf(element), description: brief.value, worker: worker.value });
  });
  cancel.addEventListener('click', () => formgen.cancel());

  function render() {
    const { capability, generation, last } = formgen;
    const hosted = formgen.hosted;
    if (capability.state === 'pending') {

      // The service may offer its Workers a moment later: no button until it answered.
      container.replaceChildren();
      container.dataset.state = capability.state;
      return;
    }
    const workers = (formgen.viaService && capability.value && capability.value.workers) || [];
    if (worker.options.length !== workers.length) {
      worker.replaceChildren(...workers.map((w) => new Option(`${w.name} (${w.model})`, w.name)));
    }
    container.dataset.capability = capability.state;
    const mine = generation && generation.key === key;
    button.disabled = Boolean(generation);
    brief.disabled = Boolean(generation);
    cancel.hidden = !mine;
    clearInterval(timer);
    if (mine && generation) {
      const tick = () => {
        const p = generation.progress;
        const seconds = Math.floor((Date.now() - generation.started) / 1000);
        status.textContent = `${formgen.viaService ? 'The model is' : 'The builtin is'} working… ${seconds} s`
          + (p ? ` · ${p.components} fields so far, ${p.tokens} tokens${p.attempt > 1 ? `, attempt ${p.attempt}` : ''}` : '');
      };
      tick();
      timer = setInterval(tick, 250);
      container.dataset.state = 'generating';
    } else if (last && last.key === key) {
      status.replaceChildren(...resultLines(last));
      container.dataset.state = last.proposal ? 'proposed' : last.cancelled ? 'cancelled' : 'error';
    } else {
      status.replaceChildren();
      container.dataset.state = 'ready';
    }
    note.textContent = capabilityLine(capability);
    const parts = [ ...(hosted ? [] : [ brief, ...(workers.length > 1 ? [ worker ] : []) ]), row, status,
      ...(note.textContent ? [ note ] : []) ];
    if (container.childElementCount !== parts.length || [ ...container.children ].some((c, i) => c !== parts[i])) {
      container.replaceChildren(...parts);
    }
  }

  const events = [ 'formgen.capability.changed', 'formgen.generation.changed' ];
  eventBus.on(events, render);
  render();
  return () => {
    clearInterval(timer);
    eventBus.off(events, render);
  };
}

/**
 * Why drafts come from the builtin in the browser although a service is configured; '' otherwise.
 * @param {import('./Formgen.js').CapabilityState} capability
 */
function capabilityLine(capability) {
  const builtin = 'Drafts come from the builtin, in this browser.';
  if (capability.state === 'unavailable') return `The formgen service offers no model Worker. ${builtin}`;
  if (capability.error) return `${capability.error.message} ${builtin}`;
  return '';
}

/** @param {import('./Formgen.js').LastResult} last */
function resultLines(last) {
  if (last.cancelled) return [ muted('Cancelled; nothing was bound.') ];
  if (last.error) return [ errorLine(last.error.message) ];
  const proposal = last.proposal;
  if (!proposal) return [];
  const { schema } = proposal;
  const fields = schema.components.filter((c) => c.key).length;
  const how = last.binding === 'embedded' ? 'embedded in the process' : `bound to form "${schema.id}"`;
  const by = /** @type {{ local?: boolean }} */ (proposal).local
    ? `the builtin (${proposal.model}), drafted in this browser` : `${proposal.worker} (${proposal.model})`;
  const line = el('p', 'formgen-result', `Proposal by ${by}, ${fields} field${fields === 1 ? '' : 's'}, ${how}. Ctrl+Z takes it back. `);
  if (last.binding !== 'embedded') {
    const save = /** @type {HTMLButtonElement} */ (el('button', 'formgen-download', `Download ${schema.id}.form`));
    save.type = 'button';
    save.addEventListener('click', () => download(`${schema.id}.form`, JSON.stringify(schema, null, 2), 'application/json'));
    line.append(save);
  }
  const warnings = (proposal.warnings || []).map((w) => el('li', '', w));
  if (!warnings.length) return [ line ];
  const list = el('ul', 'formgen-warnings');
  list.append(...warnings);
  return [ line, list ];
}

/**
 * The step's data picture and the findings for its bound form.
 * @param {HTMLElement} container
 * @param {Formgen} formgen
 * @param {any} eventBus
 * @param {any} element
 * @returns {() => void} unmounts
 */
export function mountData(container, formgen, eventBus, element) {
  container.classList.add('formgen-data-entry');
  const body = el('div', 'formgen-data-body');
  const findings = el('div', 'formgen-findings-box');
  container.replaceChildren(el('h4', 'formgen-data-title', 'Data (formgen)'), body, findings);

  function render() {
    const { picture } = formgen;
    const mine = picture.target && picture.target.problem === undefined
      && (picture.target.element === element || (picture.target.element && picture.target.element.id === element.id));
    container.dataset.state = mine ? picture.state : 'idle';
    if (!mine) {
      body.replaceChildren(muted(formgen.picture.state === 'idle' ? '' : 'Reading the process…'));
      findings.replaceChildren();
      return;
    }
    if (picture.state === 'error' && picture.error) body.replaceChildren(errorLine(picture.error.message));
    else if (picture.state === 'ready' && picture.outline) container.dataset.step = renderDataPicture(body, picture.outline);
    findings.replaceChildren(...findingLines(picture), ...processFindingLines(picture));
  }

  eventBus.on('formgen.picture.changed', render);
  render();
  return () => eventBus.off('formgen.picture.changed', render);
}

/**
 * What formgen found wrong with the process itself (a name read that nothing writes, a literal without its
 * quotes, a misspelling): nothing when it found nothing.
 * @param {import('./Formgen.js').Picture} picture
 */
export function processFindingLines(picture) {
  const found = picture.state === 'ready' && picture.outline && picture.outline.findings;
  if (!Array.isArray(found) || !found.length) return [];
  return [ el('h4', 'formgen-data-title', 'Findings for the process'), findingList(found) ];
}

/**
 * What the check said about the bound form: its findings, "nothing found", or why it could not check.
 * @param {import('./Formgen.js').Picture} picture
 */
export function findingLines(picture) {
  if (picture.state !== 'ready' || !picture.checked) return [];
  const title = el('h4', 'formgen-data-title', `Findings for form "${picture.checked}"`);
  if (picture.checkError) return [ title, errorLine(picture.checkError.message) ];
  if (!Array.isArray(picture.findings)) return []; // a service without the contract check says nothing
  if (!picture.findings.length) return [ title, muted('The form supplies what the process needs from this step.') ];
  return [ title, findingList(picture.findings) ];
}
