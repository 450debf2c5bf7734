// formgen for bpmn-js: the `formgen` service (capability, the selected step's data picture and findings,
// generation and binding) and, with bpmn-js-properties-panel and its Zeebe provider, formgen's entries in
// the Form group of a user task or start event.
//
//   new BpmnModeler({
//     additionalModules: [BpmnPropertiesPanelModule, BpmnPropertiesProviderModule,
//       ZeebePropertiesProviderModule, FormgenBpmnModule],
//     formgen: { url: 'https://formgen.example.com', binding: 'linked' },
//   });
import Formgen from './Formgen.js';
import FormgenPropertiesProvider from './FormgenPropertiesProvider.js';

/** The bpmn-js module: `formgen` and its properties-panel entries. */
export const FormgenBpmnModule = {
  __init__: [ 'formgen', 'formgenPropertiesProvider' ],
  formgen: [ 'type', Formgen ],
  formgenPropertiesProvider: [ 'type', FormgenPropertiesProvider ],
};

/** The `formgen` service alone, for a modeller without the properties panel. */
export const FormgenServiceModule = {
  __init__: [ 'formgen' ],
  formgen: [ 'type', Formgen ],
};

export default FormgenBpmnModule;

export { Formgen };
export { boundForm, bindForm, embedForm, download } from './binding.js';
export { renderDataPicture, findingList } from './data-picture.js';
export { findingLines } from './views.js';
export { currentTarget, targetOf, proposedFormId, targetKey, describe, boundFormId } from './target.js';
