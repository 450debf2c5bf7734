// A plain bpmn-js Modeler with bpmn-js-bpmnlint and formgen's rules, wired as a host wires them: the config
// packed as bpmnlint packs a `.bpmnlintrc` (`formgen-lint-config`, which tests/lint.mjs builds with bpmnlint's
// compile-config), the core loaded with ready() and the diagram linted again once it is.
// ?project: a project handed over by setProject(), with a form but not the one "Review order" binds.
import BpmnModeler from 'bpmn-js/lib/Modeler';
import lintModule from 'bpmn-js-bpmnlint';
import zeebeModdle from 'zeebe-bpmn-moddle/resources/zeebe.json';
import { ready, setProject } from 'bpmnlint-plugin-formgen';
import linterConfig from 'formgen-lint-config';

import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import 'bpmn-js-bpmnlint/dist/assets/css/bpmn-js-bpmnlint.css';
import shippingXml from '../../packages/bpmnlint-plugin-formgen/test/fixtures/browser/shipping.bpmn';

if (new URLSearchParams(window.location.search).has('project')) {
  setProject([ { name: 'forms/other.form', text: '{"id": "other", "type": "default", "components": []}' } ]);
}

const modeler = new BpmnModeler({
  container: '#canvas',
  moddleExtensions: { zeebe: zeebeModdle },
  additionalModules: [ lintModule ],
  linting: { active: true, bpmnlint: linterConfig },
});
window.modeler = modeler;

const eventBus = modeler.get('eventBus');
const linted = () => new Promise((resolve) => eventBus.once('linting.completed', ({ issues }) => resolve(issues)));

/** The formgen rules among a lint run's issues (bpmn-js-bpmnlint groups them by element). */
const formgenRules = (issues) => Object.values(issues).flat().map((issue) => issue.rule).filter((rule) => rule.startsWith('formgen/'));

// Linted on import, before the core is loaded: formgen's rules report nothing yet.
let done = linted();
await modeler.importXML(shippingXml);
modeler.get('canvas').zoom('fit-viewport');
window.beforeReady = formgenRules(await done);

// The host's part: load the core (served beside the page), then lint again.
done = linted();
await ready('formgen_core.wasm');
modeler.get('linting').update();
window.afterReady = formgenRules(await done);
document.body.dataset.ready = 'true';
