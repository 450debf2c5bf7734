// The formgen page: a bpmn-js Modeler with Camunda's properties panel (left), the form-js FormEditor (right),
// the few controls that ask formgen for a draft, and the Data panel (data.js) beside them. formgen only
// proposes: nothing changes in the process until the author presses "Use this form", and that change goes
// through the modeller's command stack, so Ctrl+Z takes it back.
import BpmnModeler from 'bpmn-js/lib/Modeler';
import {
  BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, ZeebePropertiesProviderModule, ZeebeTooltipProvider,
} from 'bpmn-js-properties-panel';
import ZeebeBehaviorsModule from 'camunda-bpmn-js-behaviors/lib/camunda-cloud';
import { FormEditor } from '@bpmn-io/form-js-editor';
import zeebeModdle from 'zeebe-bpmn-moddle/resources/zeebe.json';

import { bindForm, download } from './bind.js';
import { createDataPanel } from './data.js';
import * as targets from './target.js';
import vacationXml from './vacation.bpmn';

import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
// bpmn.css (not bpmn-embedded.css): the font files are copied into dist by the build.
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import '@bpmn-io/form-js-viewer/dist/assets/form-js.css';
import '@bpmn-io/form-js-editor/dist/assets/form-js-editor.css';
// One properties-panel stylesheet serves both panels (the modeller's and the form editor's): the same
// @bpmn-io/properties-panel version draws them.
import '@bpmn-io/properties-panel/dist/assets/properties-panel.css';
import '@bpmn-io/form-js-editor/dist/assets/dragula.css';
import './style.css';

const API = 'api/formgen/'; // relative: the page is served by formgen itself, from the same origin

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
  progress: null, // the latest `progress` event of the running generation's stream
  proposalFor: null, // the target key (see targetKey) whose proposal the editor holds; null: none
  editorFor: null, // the target key the editor's form belongs to (a proposal, or the empty form shown for it)
  forms: new Map(), // id → form-js schema: the project's other forms the page holds (used or opened)
};

const modeler = new BpmnModeler({
  container: '#canvas',
  moddleExtensions: { zeebe: zeebeModdle },
  additionalModules: [
    BpmnPropertiesPanelModule,
    BpmnPropertiesProviderModule,
    ZeebePropertiesProviderModule,
    ZeebeBehaviorsModule, // what Camunda's modeller does around an edit (forms, user tasks, clean-ups)
  ],
  propertiesPanel: {
    parent: '#properties',
    tooltip: ZeebeTooltipProvider,
    // Where formgen's work shows: the form binding and the mappings are open from the start.
    layout: { groups: { form: { open: true }, inputs: { open: true }, outputs: { open: true } } },
  },
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
    // Another process, another project: what the page held belongs to the one before.
    state.forms.clear();
    state.proposalFor = null;
    state.editorFor = null;
  } catch (err) {
    ui.bpmnError.textContent = `Could not open ${fileName}: ${err.message}`;
  }
  updateTarget();
}

/** Like zoom('fit-viewport'), but clear of the palette, which floats over the canvas's left edge. */
function fitDiagram() {
  const canvas = modeler.get('canvas');
  canvas.resized(); // the container may have changed size since bpmn-js last measured it
  canvas.zoom('fit-viewport', 'auto');
  const { outer, inner } = canvas.viewbox();
  if (!inner.width || !inner.height) return; // an empty diagram
  const palette = document.querySelector('#canvas .djs-palette');
  const left = (palette ? palette.getBoundingClientRect().right - $('canvas').getBoundingClientRect().left : 60) + 16;
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
  const files = [...ui.openFile.files];
  ui.openFile.value = ''; // so that opening the same file again fires "change" again
  const bpmn = files.filter((f) => !/\.form$/i.test(f.name));
  if (bpmn.length > 1) {
    ui.bpmnError.textContent = `Open one process at a time (${bpmn.map((f) => f.name).join(', ')}).`;
    return;
  }
  if (bpmn.length) await openProcess(await bpmn[0].text(), bpmn[0].name);
  const problems = [];
  for (const file of files.filter((f) => /\.form$/i.test(f.name))) {
    const problem = holdForm(await file.text());
    if (problem) problems.push(`${file.name}: ${problem}`);
  }
  if (problems.length) ui.bpmnError.textContent = `Could not read ${problems.join('; ')}`;
  data.refresh();
});

/** Keeps a .form file the author opened as one of the project's forms; returns why not, or ''. */
function holdForm(text) {
  let schema;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    return `not JSON (${err.message}).`;
  }
  if (!schema || typeof schema.id !== 'string' || !schema.id || !Array.isArray(schema.components)) {
    return 'not a form-js form (no "id" and "components").';
  }
  state.forms.set(schema.id, schema);
  return '';
}

const currentTarget = () => targets.current(modeler);
const proposedFormId = (target) => targets.proposedFormId(modeler, target);
const { boundFormId, key: targetKey, describe } = targets;

function updateTarget() {
  const target = currentTarget();
  ui.target.textContent = target.problem
    || target.label + (target.formId ? ` · bound to form "${target.formId}"` : ' · no form bound yet');
  showEmptyFormFor(target);
  updateButtons();
  data.refresh();
}

/**
 * Before any proposal, the editor shows an empty form under the id the step binds or a generation will use,
 * so the id in the editor's properties is the one the form will have. A form the author started by hand,
 * or a proposal, stays as it is.
 */
let emptyImport = Promise.resolve();
function showEmptyFormFor(target) {
  const key = targetKey(target);
  if (key === null || key === state.editorFor || state.proposalFor !== null) return;
  const current = formEditor.saveSchema();
  if (current.components && current.components.length) return;
  const id = proposedFormId(target);
  state.editorFor = key;
  emptyImport = emptyImport.then(() => formEditor.importSchema({ type: 'default', id, components: [] }))
    .catch((err) => showError(`The form editor could not start an empty form (${err.message}).`));
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

/**
 * The project's other forms, for formgen to read alongside the process: the ones the page holds, and the
 * editor's form when it belongs to another step. The target's own form is never among them (it is the one
 * being drafted). Decisions: this page opens no DMN, so none.
 */
function projectFor(target) {
  const forms = new Map(state.forms);
  const editor = formEditor.saveSchema();
  if (state.editorFor !== null && editor.id && editor.components && editor.components.length) {
    forms.set(editor.id, editor);
  }
  const own = targetKey(target) === state.editorFor ? editor.id : '';
  for (const id of [target.formId, proposedFormId(target), own]) if (id) forms.delete(id);
  return { forms: [...forms.values()], decisions: [] };
}

const data = createDataPanel({
  api: API,
  headers,
  errorSentence,
  // Only when formgen has answered the probe: before it, or without a sign-in, there is nobody to ask.
  ready: () => ['available', 'unavailable'].includes(ui.root.dataset.capability),
  currentTarget,
  describe,
  request: async (target) => ({
    processXml: (await modeler.saveXML()).xml,
    elementId: target.elementId,
    ...projectFor(target),
  }),
});

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
  data.refresh();
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
    <textarea id="formgen-brief" rows="4"
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
  // Refine and "Use this form" act on the proposal for this step, never on another step's.
  const proposal = !target.problem && state.proposalFor === targetKey(target);
  generateButton.disabled = busy || Boolean(target.problem);
  $('formgen-refine').disabled = busy || !proposal;
  $('formgen-use').disabled = busy || !proposal;
}

async function generate(refine) {
  const target = currentTarget();
  if (target.problem) return showError(target.problem);
  showError('');

  const body = {
    description: $('formgen-brief').value,
    worker: $('formgen-worker').value,
    processXml: (await modeler.saveXML()).xml,
    ...projectFor(target),
  };
  if (target.elementId) body.elementId = target.elementId;
  const editor = formEditor.saveSchema();
  if (refine) body.schema = editor;
  // The id the editor shows for this step (the author may have changed it there), else the bound or the
  // proposed one: the form keeps its id over refinements, before and after it is bound.
  const own = state.editorFor === targetKey(target) ? editor.id : '';
  const formId = target.formId || own || proposedFormId(target);
  if (formId) body.formId = formId;

  const controller = new AbortController();
  state.inFlight = controller;
  startProgress();
  let drafted = false; // the editor shows a draft: restore the author's form unless a proposal replaces it
  try {
    const res = await fetch(API + 'generate', {
      method: 'POST',
      headers: { ...headers(), Accept: 'text/event-stream, application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!res.ok) {
      if (res.status === 401) ui.auth.hidden = false;
      return showError(await errorSentence(res));
    }
    let answer;
    if ((res.headers.get('content-type') || '').startsWith('text/event-stream') && res.body) {
      answer = await readEvents(res.body, async (draft) => {
        try {
          await formEditor.importSchema(draft);
          drafted = true;
          previewing(true); // a draft is a preview: read-only until the proposal replaces it
        } catch { /* a draft the editor cannot show is skipped; the proposal decides */ }
      });
      if (answer.error) {
        if (answer.status === 401) ui.auth.hidden = false;
        return showError(answer.error);
      }
    } else {
      answer = await res.json(); // streaming unavailable: as before
    }
    try {
      await formEditor.importSchema(answer.schema);
      drafted = false;
    } catch (err) {
      return showError(`The proposal could not be shown in the form editor (${err.message}).`);
    }
    state.proposalFor = targetKey(target);
    state.editorFor = state.proposalFor;
    showResult(answer);
  } catch (err) {
    if (err.name === 'AbortError') showError('Cancelled; the form editor is as it was.');
    else showError(`formgen could not be reached (${err.message}).`);
  } finally {
    previewing(false);
    if (drafted) await formEditor.importSchema(editor).catch(() => {});
    state.inFlight = null;
    stopProgress();
    updateButtons();
  }
}

// While drafts stream in, the form editor shows a preview nobody can edit: `inert` takes it out of
// reach of mouse and keyboard, and the class says so on screen.
function previewing(on) {
  const el = document.getElementById('form-editor');
  el.inert = on;
  el.classList.toggle('previewing', on);
}

// The event stream of a generation: each `draft` goes to `onDraft`, `progress` to the progress line;
// resolves with the `proposal` body, or with the `error` body ({error, code, status}).
async function readEvents(stream, onDraft) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before the proposal');
    buffer += value.replace(/\r\n/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      const payload = JSON.parse(data.join('\n'));
      if (name === 'draft') await onDraft(payload);
      else if (name === 'progress') state.progress = payload;
      else if (name === 'proposal' || name === 'error') {
        reader.cancel().catch(() => {});
        return payload;
      }
    }
  }
}

function showResult(answer) {
  const { inputTokens = 0, outputTokens = 0 } = answer.usage || {};
  ui.info.textContent = `Proposal by ${answer.worker} (${answer.model}) · ${inputTokens} tokens in, ${outputTokens} out`
    + ` · ${answer.attempts} attempt${answer.attempts === 1 ? '' : 's'} · not saved until "Use this form"`;
  ui.warnings.replaceChildren(...(answer.warnings || []).map((w) => {
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
  state.progress = null;
  const tick = () => {
    const p = state.progress;
    const soFar = p ? ` · ${p.components} fields so far, ${p.tokens} tokens${p.attempt > 1 ? `, attempt ${p.attempt}` : ''}` : '';
    ui.elapsed.textContent = `The model is working… ${Math.floor((performance.now() - started) / 1000)} s${soFar}${limit}`;
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
  if (!schema.id) schema.id = proposedFormId(target);
  // A proposal for an unbound step may carry an id another step already uses: binding it silently would
  // share that form and the download would overwrite its .form file. Sharing is allowed, but on purpose.
  const holder = modeler.get('elementRegistry').find((e) =>
    !e.labelTarget && e !== target.element && boundFormId(e) === schema.id);
  if (holder && !window.confirm(`Form "${schema.id}" is already bound to ${describe(holder)}. `
    + `Bind ${describe(target.element)} to the same form and download ${schema.id}.form anyway? `
    + '(Cancel, then give the form its own id in the form editor\'s properties.)')) {
    return;
  }
  bindForm(modeler, target.element, schema.id);
  state.forms.set(schema.id, schema); // one of the project's forms now: the other steps' drafts read it

  download(`${schema.id}.form`, JSON.stringify(schema, null, 2), 'application/json');
  const { xml } = await modeler.saveXML({ format: true });
  download(state.fileName.replace(/\.(bpmn|xml)$/i, '') + '.bpmn', xml, 'application/xml');
  ui.info.textContent = `Bound ${describe(target.element)} to form "${schema.id}" and downloaded ${schema.id}.form`
    + ` and the .bpmn (Ctrl+Z in the diagram takes the binding back).`;
}

// ---------------------------------------------------------------------------------------------------

await formEditor.importSchema({ type: 'default', components: [] }); // replaced at once by the start form's
await openProcess(vacationXml, 'vacation.bpmn');
probe();
