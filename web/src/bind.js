// "Use this form"'s two effects outside the form editor: the step's binding, made through the modeller's
// command stack (so Ctrl+Z takes it back), and the downloads of the .form and the .bpmn.
import { is } from 'bpmn-js/lib/util/ModelUtil';

/** One modelling command either way, so that a single undo removes the binding. */
export function bindForm(modeler, element, formId) {
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

/** Hands a text to the browser as a download named `name`. */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
