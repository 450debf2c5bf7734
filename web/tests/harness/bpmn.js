// A plain bpmn-js Modeler with Camunda's properties panel and @formgen/bpmn-js, as an editor team wires it:
// the properties panel's Form group gets "Generate form" and the step's data picture. ?binding=embedded
// binds proposals as embedded forms; ?offline: no formgen service (the core in the browser does it all).
import BpmnModeler from 'bpmn-js/lib/Modeler';
import {
  BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, ZeebePropertiesProviderModule,
} from 'bpmn-js-properties-panel';
import zeebeModdle from 'zeebe-bpmn-moddle/resources/zeebe.json';
import { FormgenBpmnModule } from '@formgen/bpmn-js';

import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import '@bpmn-io/properties-panel/dist/assets/properties-panel.css';
import '@formgen/bpmn-js/style.css';
import vacationXml from '../../src/vacation.bpmn';

const query = new URLSearchParams(window.location.search);
const binding = query.get('binding') || 'linked';
const modeler = new BpmnModeler({
  container: '#canvas',
  moddleExtensions: { zeebe: zeebeModdle },
  additionalModules: [ BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, ZeebePropertiesProviderModule, FormgenBpmnModule ],
  propertiesPanel: { parent: '#properties', layout: { groups: { form: { open: true } } } },
  formgen: { url: query.has('offline') ? undefined : window.location.origin, binding, core: 'formgen_core.wasm' },
});
window.modeler = modeler;
await modeler.importXML(vacationXml);
modeler.get('canvas').zoom('fit-viewport');
document.body.dataset.ready = 'true';
