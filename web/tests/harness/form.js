// A plain form-js FormEditor with @formgen/form-js, as an editor team wires it: formgen's panel in the
// palette's footer, no process (the brief is the whole request).
import { FormEditor } from '@bpmn-io/form-js-editor';
import { FormgenFormModule } from '@formgen/form-js';

import '@bpmn-io/form-js-viewer/dist/assets/form-js.css';
import '@bpmn-io/form-js-editor/dist/assets/form-js-editor.css';
import '@bpmn-io/properties-panel/dist/assets/properties-panel.css';
import '@bpmn-io/form-js-editor/dist/assets/dragula.css';
import '@formgen/form-js/style.css';

const formEditor = new FormEditor({
  container: '#form-editor',
  additionalModules: [ FormgenFormModule ],
  formgen: { url: window.location.origin },
});
window.formEditor = formEditor;

// The author's own form: Cancel must put it back.
await formEditor.importSchema({
  id: 'my-form', type: 'default',
  components: [ { type: 'textfield', key: 'mine', label: 'My own field', id: 'Field_mine' } ],
});
document.body.dataset.ready = 'true';
