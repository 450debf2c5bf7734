// How a step names its form, read and written through the modeller's command stack (so Ctrl+Z takes a
// binding back in one step): a linked Camunda form (zeebe:formDefinition formId) or an embedded one
// (zeebe:userTaskForm in the process, named by the formDefinition's formKey), as the Zeebe properties
// panel writes them.
import { is } from 'bpmn-js/lib/util/ModelUtil';

import { FORM_KEY_PREFIX, formDefinition } from './target.js';

/** @typedef {import('./target.js').Modeler} Modeler */

/**
 * What the element binds: a linked form id, an embedded form (its JSON), another kind, or nothing.
 * @param {any} element
 * @returns {{ type: 'linked', formId: string } | { type: 'embedded', formKey: string, body: string }
 *   | { type: 'other' } | null}
 */
export function boundForm(element) {
  const def = formDefinition(element);
  if (!def) return null;
  const formId = def.get('formId');
  if (formId) return { type: 'linked', formId };
  const formKey = def.get('formKey');
  const embedded = formKey && userTaskForm(element, formKey);
  if (embedded) return { type: 'embedded', formKey, body: embedded.get('body') || '' };
  return { type: 'other' };
}

/**
 * The zeebe:UserTaskForm of the element's process that `formKey` names.
 * @param {any} element
 * @param {string} formKey
 */
function userTaskForm(element, formKey) {
  const root = rootOf(element);
  const ext = root && root.get('extensionElements');
  return ext && ext.get('values').find((/** @type {any} */ v) =>
    is(v, 'zeebe:UserTaskForm') && `${FORM_KEY_PREFIX}${v.get('id')}` === formKey);
}

/** @param {any} element */
function rootOf(element) {
  let bo = element.businessObject;
  while (bo.$parent && !is(bo, 'bpmn:Process')) bo = bo.$parent;
  return is(bo, 'bpmn:Process') ? bo : null;
}

/**
 * Binds the element to the linked form `formId`: one modelling command either way, so one undo removes it.
 * @param {Modeler} modeler
 * @param {any} element
 * @param {string} formId
 */
export function bindForm(modeler, element, formId) {
  const modeling = modeler.get('modeling');
  const bpmnFactory = modeler.get('bpmnFactory');
  const bo = element.businessObject;
  const ext = bo.get('extensionElements');
  const existing = formDefinition(element);
  if (existing) {

    // A form id replaces any other way of naming the form: Zeebe takes exactly one of them.
    modeling.updateModdleProperties(element, existing, { formId, formKey: undefined, externalReference: undefined });
    return;
  }
  const definition = bpmnFactory.create('zeebe:FormDefinition', { formId });
  if (ext) {
    definition.$parent = ext;
    modeling.updateModdleProperties(element, ext, { values: [ ...ext.get('values'), definition ] });
  } else {
    const created = bpmnFactory.create('bpmn:ExtensionElements', { values: [ definition ] });
    definition.$parent = created;
    created.$parent = bo;
    modeling.updateProperties(element, { extensionElements: created });
  }
}

/**
 * Embeds the form in the process (zeebe:userTaskForm) and names it from the user task, as one command
 * (the properties panel's multi-command executor), so one undo removes both. Only user tasks take an
 * embedded form; a start event is bound to the linked form instead.
 * @param {Modeler} modeler
 * @param {any} element
 * @param {import('@formgen/client').FormSchema} schema
 * @returns {'embedded' | 'linked'}
 */
export function embedForm(modeler, element, schema) {
  const root = rootOf(element);
  if (!is(element, 'bpmn:UserTask') || !root) {
    bindForm(modeler, element, schema.id || '');
    return 'linked';
  }
  const bpmnFactory = modeler.get('bpmnFactory');
  const commandStack = modeler.get('commandStack');
  const body = JSON.stringify(schema, null, 2);

  /** @type {Array<{ cmd: string, context: Record<string, any> }>} */
  const commands = [];

  /** @type {(target: any, moddleElement: any, properties: Record<string, any>) => void} */
  const update = (target, moddleElement, properties) => commands.push({
    cmd: 'element.updateModdleProperties', context: { element: target, moddleElement, properties },
  });

  const current = boundForm(element);
  let form = current && current.type === 'embedded' ? userTaskForm(element, current.formKey) : null;
  if (form) {
    update(element, form, { body });
  } else {
    const id = `UserTaskForm_${Math.random().toString(36).slice(2, 9)}`;
    let rootExt = root.get('extensionElements');
    form = bpmnFactory.create('zeebe:UserTaskForm', { id, body });
    if (rootExt) {
      form.$parent = rootExt;
      update(element, rootExt, { values: [ ...rootExt.get('values'), form ] });
    } else {
      rootExt = bpmnFactory.create('bpmn:ExtensionElements', { values: [ form ] });
      form.$parent = rootExt;
      rootExt.$parent = root;
      update(element, root, { extensionElements: rootExt });
    }
    const formKey = `${FORM_KEY_PREFIX}${id}`;
    const existing = formDefinition(element);
    if (existing) {
      update(element, existing, { formKey, formId: undefined, externalReference: undefined });
    } else {
      const bo = element.businessObject;
      const definition = bpmnFactory.create('zeebe:FormDefinition', { formKey });
      const ext = bo.get('extensionElements');
      if (ext) {
        definition.$parent = ext;
        update(element, ext, { values: [ ...ext.get('values'), definition ] });
      } else {
        const created = bpmnFactory.create('bpmn:ExtensionElements', { values: [ definition ] });
        definition.$parent = created;
        created.$parent = bo;
        update(element, bo, { extensionElements: created });
      }
    }
  }
  commandStack.execute('properties-panel.multi-command-executor', commands);
  return 'embedded';
}

/**
 * Hands a text to the browser as a download named `name`.
 * @param {string} name
 * @param {string} text
 * @param {string} type
 */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([ text ], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
