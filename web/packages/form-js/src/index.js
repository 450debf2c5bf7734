// formgen for the form-js editor: "Generate" and "Refine" (and "Check") in the editor, the stream's drafts as
// a read-only preview, the author's form back on Cancel, the contract's findings next to their fields.
//
//   new FormEditor({
//     container: '#form-editor',
//     additionalModules: [FormgenFormModule],
//     formgen: { url: 'https://formgen.example.com' },
//   });
import FormgenAssistant from './FormgenAssistant.js';

/** The form-js editor module: the `formgenAssistant` service and its panel. */
export const FormgenFormModule = {
  __init__: [ 'formgenAssistant' ],
  formgenAssistant: [ 'type', FormgenAssistant ],
};

export default FormgenFormModule;
export { FormgenAssistant };
