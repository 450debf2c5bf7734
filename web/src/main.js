// formgen's own page, composed of the packages an editor team uses: @formgen/client (one client for both
// editors), @formgen/bpmn-js (the step, its data picture and findings, the binding) in a bpmn-js Modeler with
// Camunda's properties panel, and @formgen/form-js (Generate/Refine/Check with the stream's drafts) in the
// form-js FormEditor. What is left here is the page's own: opening files, the token form, the Data panel's
// frame, and "Use this form" (bind the step, download the .form and the .bpmn).
//
// Everything that needs no model runs in the browser, in formgen's core (WebAssembly, assets/
// formgen_core.wasm beside this script): the data picture, the check as the author edits, the builtin's
// draft. The service that serves the page is asked only for its model Workers.
import BpmnModeler from 'bpmn-js/lib/Modeler';
import {
  BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, ZeebePropertiesProviderModule, ZeebeTooltipProvider,
} from 'bpmn-js-properties-panel';
import ZeebeBehaviorsModule from 'camunda-bpmn-js-behaviors/lib/camunda-cloud';
import { FormEditor } from '@bpmn-io/form-js-editor';
import zeebeModdle from 'zeebe-bpmn-moddle/resources/zeebe.json';

import { createClient } from '@formgen/client';
import {
  FormgenBpmnModule, bindForm, boundFormId, describe, download, findingLines, renderDataPicture, targetKey,
} from '@formgen/bpmn-js';
import { FormgenFormModule } from '@formgen/form-js';
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
import '@formgen/bpmn-js/style.css';
import '@formgen/form-js/style.css';
import './style.css';

const $ = (id) => document.getElementById(id);
const ui = {
  openButton: $('open-bpmn'),
  openFile: $('open-bpmn-file'),
  processName: $('process-name'),
  bpmnError: $('bpmn-error'),
  root: $('formgen'),
  target: $('formgen-target'),
  auth: $('formgen-auth'),
  token: $('formgen-token'),
  dataFrame: $('formgen-data-frame'),
  data: $('formgen-data'),
  dataStep: $('formgen-data-step'),
  dataBody: $('formgen-data-body'),
  dataFindings: $('formgen-data-findings'),
};

let token = ''; // only in memory: a reload asks again rather than leaving a token in storage
let fileName = 'vacation.bpmn';

// The page is served by formgen itself: the API is on this origin, under the page's own path.
const client = createClient({ baseUrl: new URL('.', window.location.href).href, token: () => token });

// formgen's core, copied beside the bundle by build.mjs; both modules share the one load.
const core = new URL('assets/formgen_core.wasm', window.location.href).href;

const modeler = new BpmnModeler({
  container: '#canvas',
  moddleExtensions: { zeebe: zeebeModdle },
  additionalModules: [
    BpmnPropertiesPanelModule,
    BpmnPropertiesProviderModule,
    ZeebePropertiesProviderModule,
    ZeebeBehaviorsModule, // what Camunda's modeller does around an edit (forms, user tasks, clean-ups)
    FormgenBpmnModule,
  ],
  propertiesPanel: {
    parent: '#properties',
    tooltip: ZeebeTooltipProvider,

    // Where formgen's work shows: the form binding and the mappings are open from the start.
    layout: { groups: { form: { open: true }, inputs: { open: true }, outputs: { open: true } } },
  },
  formgen: {
    client,
    core,

    // The form editor beside it holds the step's form: the properties panel's "Generate form" drafts there.
    onGenerate: () => assistant.generate(),
    getForm: (formId) => {
      const schema = formEditor.saveSchema();
      return schema.id === formId && schema.components.length ? schema : undefined;
    },

    // The editor's form belongs to another step: one of the project's forms for this one.
    project: (target) => {
      const schema = formEditor.saveSchema();
      const other = assistant.editorFor !== null && assistant.editorFor !== targetKey(target)
        && schema.id && schema.components && schema.components.length;
      return { forms: other ? [ schema ] : [], decisions: [] }; // this page opens no DMN
    },
  },
});
const formgen = modeler.get('formgen');

const formEditor = new FormEditor({
  container: '#form-editor',
  additionalModules: [ FormgenFormModule ],
  formgen: {
    client,
    core,
    container: '#formgen-controls',
    note: 'not saved until "Use this form"',
    target: () => {
      const target = formgen.currentTarget();
      if (target.problem !== undefined) return { problem: target.problem, key: null };
      return { key: targetKey(target), label: target.label, formId: target.formId, proposedFormId: formgen.proposedFormId(target) };
    },
    request: () => formgen.context(formgen.currentTarget()),
  },
});
const assistant = formEditor.get('formgenAssistant');

// ---------------------------------------------------------------------------------------------------
// The process

async function openProcess(xml, name) {
  ui.bpmnError.textContent = '';
  try {
    const { warnings } = await modeler.importXML(xml);
    fileName = name;
    fitDiagram();
    ui.processName.textContent = name + (warnings.length ? ` (opened with ${warnings.length} warning(s))` : '');
    ui.processName.title = warnings.map((w) => w.message).join('\n');

    // For the browser test: a copy of the fixture whose DI is incomplete would show up here.
    $('canvas').dataset.importWarnings = String(warnings.length);

    // Another process, another project: what the page held belongs to the one before.
    formgen.clearHeld();
    assistant.proposalFor = null;
    assistant.editorFor = null;
  } catch (err) {
    ui.bpmnError.textContent = `Could not open ${name}: ${err.message}`;
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
  const files = [ ...ui.openFile.files ];
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
  formgen.hold(schema);
  return '';
}

function updateTarget() {
  const target = formgen.currentTarget();
  ui.target.textContent = target.problem
    || target.label + (target.formId ? ` · bound to form "${target.formId}"` : ' · no form bound yet');
  assistant.update();
}

modeler.on('selection.changed', updateTarget);
modeler.on('commandStack.changed', updateTarget); // "Use this form" and its undo change the bound formId

// ---------------------------------------------------------------------------------------------------
// Capability and sign-in: both modules ask; the page shows the token form on a 401 and asks again. Without
// the service's Workers the builtin drafts in the browser: the page works all the same.

formEditor.on('formgen.capability.changed', ({ capability }) => {
  const { state } = capability;
  ui.root.dataset.capability = state;
  ui.target.hidden = state === 'pending';
  ui.auth.hidden = state !== 'unauthorized';
  if (state === 'unauthorized') ui.token.focus();
  renderData();
});

ui.auth.addEventListener('submit', (event) => {
  event.preventDefault();
  token = ui.token.value.trim();
  assistant.probe();
  formgen.probe();
});

// ---------------------------------------------------------------------------------------------------
// The Data panel beside the brief: the bpmn-js module's picture of the selected step, drawn by its renderer.

function renderData() {
  const { picture } = formgen;
  ui.dataFrame.hidden = ui.root.dataset.capability === 'pending'; // the picture is the core's: no service needed
  const target = picture.target;
  if (!target || target.problem !== undefined || picture.state === 'idle') {
    ui.dataStep.textContent = '';
    delete ui.data.dataset.step;
    ui.data.dataset.state = 'idle';
    ui.dataBody.replaceChildren(Object.assign(document.createElement('p'), {
      className: 'muted', textContent: 'Select a user task or a start event (or nothing, for the start form) to see its data.',
    }));
    ui.dataFindings.replaceChildren();
    return;
  }
  ui.dataStep.textContent = target.elementId ? `of ${describe(target.element)}` : 'of the start form';
  ui.data.dataset.state = picture.state;
  if (picture.state === 'error') {
    ui.dataBody.replaceChildren(Object.assign(document.createElement('p'), { className: 'error', textContent: picture.error.message }));
  } else if (picture.state === 'ready') {
    ui.data.dataset.step = renderDataPicture(ui.dataBody, picture.outline);
  }
  ui.dataFindings.replaceChildren(...findingLines(picture));
}
modeler.on('formgen.picture.changed', renderData);

// ---------------------------------------------------------------------------------------------------
// "Use this form": bind the step, download the .form and the .bpmn

const useButton = Object.assign(document.createElement('button'), {
  type: 'button', id: 'formgen-use', textContent: 'Use this form',
  title: 'Bind the step to this form and download the .form and the .bpmn',
});
assistant.addAction(useButton);
useButton.addEventListener('click', useForm);
formEditor.on('formgen.state.changed', ({ busy, proposal }) => { useButton.disabled = busy || !proposal; });

// the bound form's findings in the Data panel follow the editor: a proposal, and each check as the author edits
formEditor.on([ 'formgen.proposal', 'formgen.checked' ], () => formgen.refresh());

async function useForm() {
  const target = formgen.currentTarget();
  if (target.problem) return assistant.say(target.problem);
  if (!target.element) return assistant.say('This process has more than one start event (or none): select the one the form starts.');

  const schema = formEditor.saveSchema();
  if (!schema.id) schema.id = formgen.proposedFormId(target);

  // A proposal for an unbound step may carry an id another step already uses: binding it silently would
  // share that form and the download would overwrite its .form file. Sharing is allowed, but on purpose.
  const holder = modeler.get('elementRegistry').find((e) =>
    !e.labelTarget && e !== target.element && boundFormId(e) === schema.id);
  if (holder && !window.confirm(`Form "${schema.id}" is already bound to ${describe(holder)}. `
    + `Bind ${describe(target.element)} to the same form and download ${schema.id}.form anyway? `
    + '(Cancel, then give the form its own id in the form editor\'s properties.)')) {
    return undefined;
  }
  bindForm(modeler, target.element, schema.id);
  formgen.hold(schema); // one of the project's forms now: the other steps' drafts read it

  download(`${schema.id}.form`, JSON.stringify(schema, null, 2), 'application/json');
  const { xml } = await modeler.saveXML({ format: true });
  download(fileName.replace(/\.(bpmn|xml)$/i, '') + '.bpmn', xml, 'application/xml');
  return assistant.say(`Bound ${describe(target.element)} to form "${schema.id}" and downloaded ${schema.id}.form`
    + ' and the .bpmn (Ctrl+Z in the diagram takes the binding back).');
}

// ---------------------------------------------------------------------------------------------------

await formEditor.importSchema({ type: 'default', components: [] }); // replaced at once by the start form's
await openProcess(vacationXml, 'vacation.bpmn');
