// A plain form-js FormEditor with @formgen/form-js, as an editor team wires it: formgen's panel in the
// palette's footer. Without a query: a formgen service on this origin and no process (the brief is the
// whole request). ?offline: no service. ?step: the form is Task_approve's of the vacation process (the
// core checks it against the step's contract as the author edits).
import { FormEditor } from '@bpmn-io/form-js-editor';
import { FormgenFormModule } from '@formgen/form-js';

import '@bpmn-io/form-js-viewer/dist/assets/form-js.css';
import '@bpmn-io/form-js-editor/dist/assets/form-js-editor.css';
import '@bpmn-io/properties-panel/dist/assets/properties-panel.css';
import '@bpmn-io/form-js-editor/dist/assets/dragula.css';
import '@formgen/form-js/style.css';
import vacationXml from '../../src/vacation.bpmn';

const query = new URLSearchParams(window.location.search);
const step = query.has('step');
const formEditor = new FormEditor({
  container: '#form-editor',
  additionalModules: [ FormgenFormModule ],
  formgen: {
    url: query.has('offline') ? undefined : window.location.origin,
    core: 'formgen_core.wasm',
    ...(step ? {
      target: () => ({ key: 'Task_approve', label: 'Antrag prüfen', formId: 'approve-vacation' }),
      request: async () => ({ processXml: vacationXml, elementId: 'Task_approve', forms: [], decisions: [] }),
    } : {}),
  },
});
window.formEditor = formEditor;

// The author's own form (Cancel must put it back); for the step, one that supplies what it needs.
await formEditor.importSchema(step ? {
  id: 'approve-vacation', type: 'default', components: [
    { type: 'checkbox', key: 'approved', label: 'Approved', id: 'Field_approved' },
    { type: 'textarea', key: 'comment', label: 'Comment', id: 'Field_comment' },
  ],
} : {
  id: 'my-form', type: 'default',
  components: [ { type: 'textfield', key: 'mine', label: 'My own field', id: 'Field_mine' } ],
});
document.body.dataset.ready = 'true';
