// The formgen page: a bpmn-js Modeler (left) and the form-js FormEditor (right), and the few controls that
// ask formgen for a draft. formgen only proposes: nothing changes in the process until the author presses
// "Use this form", and that change goes through the modeller's command stack, so Ctrl+Z takes it back.
import BpmnModeler from 'bpmn-js/lib/Modeler';
import { is } from 'bpmn-js/lib/util/ModelUtil';
import { FormEditor } from '@bpmn-io/form-js-editor';
import zeebeModdle from 'zeebe-bpmn-moddle/resources/zeebe.json';

import vacationXml from './vacation.bpmn';

import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
// bpmn.css (not bpmn-embedded.css): the font files are copied into dist by the build.
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import '@bpmn-io/form-js-viewer/dist/assets/form-js.css';
import '@bpmn-io/form-js-editor/dist/assets/form-js-editor.css';
import '@bpmn-io/form-js-editor/dist/assets/properties-panel.css';
import '@bpmn-io/form-js-editor/dist/assets/dragula.css';
import './style.css';

const API = 'api/formgen/'; // relative: the page is served by formgen itself, from the same origin
const EMPTY_FORM = { type: 'default', components: [] };

const $ = (id) => document.getElementById(id);
const ui = {
  openButton: $('open-bpmn'),
  openFile: $('open-bpmn-file'),
  processName: $('process-name'),
  bpmnError: $('bpmn-error'),
  root: $('formgen'),
  target: $('formgen-target'),
  status: $('formgen-status'),
  auth: $('formgen-auth'),
  token: $('formgen-token'),
  controls: $('formgen-controls'),
  progress: $('formgen-progress'),
  elapsed: $('formgen-elapsed'),
  cancel: $('formgen-cancel'),
  error: $('formgen-error'),
  info: $('formgen-info'),
  warnings: $('formgen-warnings'),
};

const state = {
  fileName: 'vacation.bpmn',
  token: '', // only in memory: a reload asks again rather than leaving a token in storage
  capability: null,
  inFlight: null, // the AbortController of the running generation
  hasProposal: false,
};

const modeler = new BpmnModeler({
  container: '#canvas',
  moddleExtensions: { zeebe: zeebeModdle },
});
const formEditor = new FormEditor({ container: '#form-editor' });

// ---------------------------------------------------------------------------------------------------
// The process

async function openProcess(xml, fileName) {
  ui.bpmnError.textContent = '';
  try {
    const { warnings } = await modeler.importXML(xml);
    state.fileName = fileName;
    fitDiagram();
    ui.processName.textContent = fileName + (warnings.length ? ` (opened with ${warnings.length} warning(s))` : '');
    ui.processName.title = warnings.map((w) => w.message).join('\n');
    // For the browser test: a copy of the fixture whose DI is incomplete would show up here.
    $('canvas').dataset.importWarnings = String(warnings.length);
  } catch (err) {
    ui.bpmnError.textContent = `Could not open ${fileName}: ${err.message}`;
  }
  updateTarget();
}

/** Like zoom('fit-viewport'), but clear of the palette, which floats over the canvas's left edge. */
function fitDiagram() {
  const canvas = modeler.get('canvas');
  canvas.zoom('fit-viewport', 'auto');
  const { outer, inner } = canvas.viewbox();
  if (!inner.width || !inner.height) return; // an empty diagram
  const left = 80; // the palette, plus a margin
  const margin = 24;
  const scale = Math.min(1, (outer.width - left - margin) / inner.width, (outer.height - 2 * margin) / inner.height);
  canvas.viewbox({
    x: inner.x - left / scale,
    y: inner.y - (outer.height / scale - inner.height) / 2,
    width: outer.width / scale,
    height: outer.height / scale,
  });
}

ui.openButton.addEventListener('click', () => ui.openFile.click());
ui.openFile.addEventListener('change', async () => {
  const file = ui.openFile.files[0];
  ui.openFile.value = ''; // so that opening the same file again fires "change" again
  if (file) await openProcess(await file.text(), file.name);
});

const modelerElement = (element) => (element && element.labelTarget) || element;

/** The top-level start event: "nothing selected" means the start form, bound to this event. */
function startEvent() {
  const starts = modeler.get('elementRegistry').filter((e) =>
    !e.labelTarget && is(e, 'bpmn:StartEvent') && is(e.businessObject.$parent, 'bpmn:Process'));
  return starts.length === 1 ? starts[0] : null;
}

function boundFormId(element) {
  const ext = element && element.businessObject.get('extensionElements');
  const def = ext && ext.get('values').find((v) => is(v, 'zeebe:FormDefinition'));
  return (def && def.get('formId')) || '';
}

/**
 * What a generation is for: the selected user task or start event, or the start form when nothing (or only
 * a lane or pool) is selected. Any other element has no form, which is said instead of guessing.
 */
function currentTarget() {
  const selection = [...new Set(modeler.get('selection').get().map(modelerElement))];
  if (selection.length > 1) return { problem: 'Several elements are selected: select the one step the form is for.' };
  const element = selection[0] || null;
  const container = !element || ['bpmn:Lane', 'bpmn:Participant', 'bpmn:Process', 'bpmn:Collaboration']
    .some((t) => is(element, t));
  if (container) {
    const start = startEvent();
    return { elementId: '', element: start, formId: boundFormId(start), label: 'Start form (nothing selected)' };
  }
  if (!is(element, 'bpmn:UserTask') && !is(element, 'bpmn:StartEvent')) {
    return { problem: `${describe(element)} has no form: select a user task or a start event, or nothing for the start form.` };
  }
  const formId = boundFormId(element);
  return { elementId: element.id, element, formId, label: `Form for ${describe(element)}` };
}

function describe(element) {
  const name = element.businessObject.get('name');
  return name ? `"${name}" (${element.id})` : element.id;
}

function updateTarget() {
  const target = currentTarget();
  ui.target.textContent = target.problem
    || target.label + (target.formId ? ` · bound to form "${target.formId}"` : ' · no form bound yet');
  updateButtons();
}

modeler.on('selection.changed', updateTarget);
modeler.on('commandStack.changed', updateTarget); // "Use this form" and its undo change the bound formId

// ---------------------------------------------------------------------------------------------------
// formgen: capability, generate, refine

function headers() {
  const h = { 'Content-Type': 'application/json' };
  if (state.token) h.Authorization = `Bearer ${state.token}`;
  return h;
}

/** An error answer's sentence (the API writes them for the author), else a plain fallback. */
async function errorSentence(res) {
  try {
    const body = await res.json();
    if (body && body.error) {
      return [body.error, ...(Array.isArray(body.problems) ? body.problems : [])].join(' ');
    }
  } catch { /* not JSON: a proxy's page, say */ }
  return `formgen answered ${res.status} ${res.statusText}.`.replace(' .', '.');
}

async function probe() {
  ui.root.dataset.capability = 'pending';
  let res;
  try {
    res = await fetch(API + 'capability', { headers: headers() });
  } catch (err) {
    return setCapability('error', `formgen could not be reached (${err.message}).`);
  }
  if (res.status === 401) {
    ui.auth.hidden = false;
    ui.token.focus();
    return setCapability('unauthorized', await errorSentence(res));
  }
  if (!res.ok) return setCapability('error', await errorSentence(res));
  ui.auth.hidden = true;
  state.capability = await res.json();
  if (!state.capability.available || !state.capability.workers.length) {
    return setCapability('unavailable',
      'No Worker is in reach, so formgen cannot draft forms here; the form editor still works by hand.');
  }
  renderControls(state.capability);
  setCapability('available', '');
}

function setCapability(value, sentence) {
  if (value !== 'available') ui.controls.replaceChildren(); // absent, not disabled
  ui.target.hidden = value !== 'available';
  ui.status.textContent = sentence;
  ui.status.hidden = !sentence;
  ui.status.className = ['unauthorized', 'error'].includes(value) ? 'error' : 'muted';
  ui.root.dataset.capability = value;
}

ui.auth.addEventListener('submit', (event) => {
  event.preventDefault();
  state.token = ui.token.value.trim();
  probe();
});

function renderControls(capability) {
  const { workers, limits } = capability;
  const oldBrief = $('formgen-brief'); // a sign-in after a 401 re-renders: keep what the author wrote
  const written = oldBrief ? oldBrief.value : '';
  ui.controls.innerHTML = `
    <div class="row" id="formgen-worker-row" hidden>
      <label for="formgen-worker">Worker</label>
      <select id="formgen-worker"></select>
    </div>
    <label for="formgen-brief" class="sr-only">Brief</label>
    <textarea id="formgen-brief" rows="3"
      placeholder="What should the form ask for? e.g. &quot;Let the lead approve or reject, with a reason when rejecting.&quot;"></textarea>
    <div class="row">
      <button type="button" id="formgen-generate" class="primary">Generate form</button>
      <button type="button" id="formgen-refine" title="Send the form as it stands with the new brief">Refine</button>
      <button type="button" id="formgen-use" title="Bind the step to this form and download the .form and the .bpmn">Use this form</button>
      <span id="formgen-count" class="muted count"></span>
    </div>`;
  const select = $('formgen-worker');
  for (const w of workers) select.add(new Option(`${w.name} (${w.model})`, w.name));
  $('formgen-worker-row').hidden = workers.length < 2; // one Worker: nothing to pick

  const brief = $('formgen-brief');
  brief.value = written;
  const count = $('formgen-count');
  // The limit is only shown, never enforced here: formgen's own answer says what is wrong, in one place.
  const showCount = () => {
    count.textContent = `${brief.value.length} / ${limits.descriptionChars}`;
    count.classList.toggle('over', brief.value.length > limits.descriptionChars);
  };
  brief.addEventListener('input', showCount);
  showCount();

  $('formgen-generate').addEventListener('click', () => generate(false));
  $('formgen-refine').addEventListener('click', () => generate(true));
  $('formgen-use').addEventListener('click', useForm);
  updateButtons();
}

function updateButtons() {
  const generateButton = $('formgen-generate');
  if (!generateButton) return;
  const busy = Boolean(state.inFlight);
  const target = currentTarget();
  generateButton.disabled = busy || Boolean(target.problem);
  $('formgen-refine').disabled = busy || Boolean(target.problem) || !state.hasProposal;
  $('formgen-use').disabled = busy || Boolean(target.problem) || !state.hasProposal;
}

async function generate(refine) {
  const target = currentTarget();
  if (target.problem) return showError(target.problem);
  showError('');

  const body = {
    description: $('formgen-brief').value,
    worker: $('formgen-worker').value,
    processXml: (await modeler.saveXML()).xml,
  };
  if (target.elementId) body.elementId = target.elementId;
  if (refine) {
    body.schema = formEditor.saveSchema();
    // Keep the form's id stable over refinements even before it is bound to the step.
    if (!target.formId && body.schema.id) body.formId = body.schema.id;
  }
  if (target.formId) body.formId = target.formId;

  const controller = new AbortController();
  state.inFlight = controller;
  startProgress();
  try {
    const res = await fetch(API + 'generate', {
      method: 'POST', headers: headers(), body: JSON.stringify(body), signal: controller.signal,
    });
    if (!res.ok) {
      if (res.status === 401) ui.auth.hidden = false;
      return showError(await errorSentence(res));
    }
    const data = await res.json();
    try {
      await formEditor.importSchema(data.schema);
    } catch (err) {
      return showError(`The proposal could not be shown in the form editor (${err.message}).`);
    }
    state.hasProposal = true;
    showResult(data);
  } catch (err) {
    if (err.name === 'AbortError') showError('Cancelled; the form editor is as it was.');
    else showError(`formgen could not be reached (${err.message}).`);
  } finally {
    state.inFlight = null;
    stopProgress();
    updateButtons();
  }
}

function showResult(data) {
  const { inputTokens = 0, outputTokens = 0 } = data.usage || {};
  ui.info.textContent = `Proposal by ${data.worker} (${data.model}) · ${inputTokens} tokens in, ${outputTokens} out`
    + ` · ${data.attempts} attempt${data.attempts === 1 ? '' : 's'} · not saved until "Use this form"`;
  ui.warnings.replaceChildren(...(data.warnings || []).map((w) => {
    const li = document.createElement('li');
    li.textContent = w;
    return li;
  }));
}

function showError(sentence) {
  ui.error.textContent = sentence;
}

let timer = null;
function startProgress() {
  const started = performance.now();
  const limit = state.capability ? ` (at most ${state.capability.limits.modelTimeoutS} s)` : '';
  const tick = () => {
    ui.elapsed.textContent = `The model is working… ${Math.floor((performance.now() - started) / 1000)} s${limit}`;
  };
  tick();
  timer = setInterval(tick, 250);
  ui.progress.hidden = false;
  updateButtons();
}

function stopProgress() {
  clearInterval(timer);
  ui.progress.hidden = true;
}

ui.cancel.addEventListener('click', () => state.inFlight && state.inFlight.abort());
// Leaving the page drops the request, and formgen then drops the model call: nobody pays for a lost answer.
window.addEventListener('pagehide', () => state.inFlight && state.inFlight.abort());

// ---------------------------------------------------------------------------------------------------
// "Use this form": bind the step, download the .form and the .bpmn

async function useForm() {
  const target = currentTarget();
  if (target.problem) return showError(target.problem);
  if (!target.element) return showError('This process has more than one start event (or none): select the one the form starts.');
  showError('');

  const schema = formEditor.saveSchema();
  if (!schema.id) schema.id = target.formId || `${target.element.id}-form`;
  // A proposal for an unbound step may carry an id another step already uses: binding it silently would
  // share that form and the download would overwrite its .form file. Sharing is allowed, but on purpose.
  const holder = modeler.get('elementRegistry').find((e) =>
    !e.labelTarget && e !== target.element && boundFormId(e) === schema.id);
  if (holder && !window.confirm(`Form "${schema.id}" is already bound to ${describe(holder)}. `
    + `Bind ${describe(target.element)} to the same form and download ${schema.id}.form anyway? `
    + '(Cancel, then give the form its own id in the form editor\'s properties.)')) {
    return;
  }
  bindForm(target.element, schema.id);

  download(`${schema.id}.form`, JSON.stringify(schema, null, 2), 'application/json');
  const { xml } = await modeler.saveXML({ format: true });
  download(state.fileName.replace(/\.(bpmn|xml)$/i, '') + '.bpmn', xml, 'application/xml');
  ui.info.textContent = `Bound ${describe(target.element)} to form "${schema.id}" and downloaded ${schema.id}.form`
    + ` and the .bpmn (Ctrl+Z in the diagram takes the binding back).`;
}

/** One modelling command either way, so that a single undo removes the binding. */
function bindForm(element, formId) {
  const modeling = modeler.get('modeling');
  const bpmnFactory = modeler.get('bpmnFactory');
  const bo = element.businessObject;
  const ext = bo.get('extensionElements');
  const existing = ext && ext.get('values').find((v) => is(v, 'zeebe:FormDefinition'));
  if (existing) {
    // A form id replaces any other way of naming the form: Zeebe takes exactly one of them.
    modeling.updateModdleProperties(element, existing, { formId, formKey: undefined, externalReference: undefined });
    return;
  }
  const definition = bpmnFactory.create('zeebe:FormDefinition', { formId });
  if (ext) {
    definition.$parent = ext;
    modeling.updateModdleProperties(element, ext, { values: [...ext.get('values'), definition] });
  } else {
    const created = bpmnFactory.create('bpmn:ExtensionElements', { values: [definition] });
    definition.$parent = created;
    created.$parent = bo;
    modeling.updateProperties(element, { extensionElements: created });
  }
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

// ---------------------------------------------------------------------------------------------------

await Promise.all([
  formEditor.importSchema(EMPTY_FORM),
  openProcess(vacationXml, 'vacation.bpmn'),
]);
probe();
