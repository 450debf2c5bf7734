// What a generation is for, read from the modeller: the selected step (or the start form), the form it binds
// or will get, and how to name it to the author. Knows bpmn-js's model, nothing of formgen's API.
import { is } from 'bpmn-js/lib/util/ModelUtil';

/**
 * The bpmn-js modeller (or its `bpmnjs` service): what these functions read.
 * @typedef {{ get: (name: string) => any, getDefinitions: () => any }} Modeler
 */

/**
 * A step a form belongs to, or why there is none.
 * @typedef {{ problem: string } | {
 *   problem?: undefined, elementId: string, element: any, formId: string, label: string
 * }} Target
 */

export const FORM_KEY_PREFIX = 'camunda-forms:bpmn:';

/** @param {any} element */
const modelerElement = (element) => (element && element.labelTarget) || element;

/**
 * The top-level start event: "nothing selected" means the start form, bound to this event.
 * @param {Modeler} modeler
 */
function startEvent(modeler) {
  const starts = modeler.get('elementRegistry').filter((/** @type {any} */ e) =>
    !e.labelTarget && is(e, 'bpmn:StartEvent') && is(e.businessObject.$parent, 'bpmn:Process'));
  return starts.length === 1 ? starts[0] : null;
}

/**
 * The element's zeebe:FormDefinition, if any.
 * @param {any} element
 */
export function formDefinition(element) {
  const bo = element && element.businessObject;
  const ext = bo && bo.get('extensionElements');
  return (ext && ext.get('values').find((/** @type {any} */ v) => is(v, 'zeebe:FormDefinition'))) || null;
}

/**
 * The form id the element binds (zeebe:formDefinition formId), or ''.
 * @param {any} element
 */
export function boundFormId(element) {
  const def = formDefinition(element);
  return (def && def.get('formId')) || '';
}

/**
 * The process a step belongs to (through sub-processes); for the start form, the one process there is.
 * @param {Modeler} modeler
 * @param {any} element
 */
export function processOf(modeler, element) {
  for (let bo = element && element.businessObject; bo; bo = bo.$parent) {
    if (is(bo, 'bpmn:Process')) return bo;
  }
  const definitions = modeler.getDefinitions();
  const processes = ((definitions && definitions.get('rootElements')) || []).filter((/** @type {any} */ r) => is(r, 'bpmn:Process'));
  return processes.length === 1 ? processes[0] : null;
}

/**
 * The id a generation's form will carry, as formgen chooses it: the id the step binds, else
 * "<process id>-<step id>" ("-start" for the start form), numbered on when another step binds it.
 * @param {Modeler} modeler
 * @param {Target} target
 */
export function proposedFormId(modeler, target) {
  if (target.problem !== undefined) return '';
  if (target.formId) return target.formId;
  const process = processOf(modeler, target.element);
  if (!process) return '';
  const base = `${process.id}-${target.elementId || 'start'}`;
  const bound = new Set(modeler.get('elementRegistry').getAll().map(boundFormId));
  let id = base;
  for (let n = 2; bound.has(id); n += 1) id = `${base}-${n}`;
  return id;
}

/**
 * What a generation is for: the selected user task or start event, or the start form when nothing (or only a
 * lane or pool) is selected. Any other element has no form, which is said instead of guessing.
 * @param {Modeler} modeler
 * @returns {Target}
 */
export function currentTarget(modeler) {
  const selection = [ ...new Set(modeler.get('selection').get().map(modelerElement)) ];
  if (selection.length > 1) return { problem: 'Several elements are selected: select the one step the form is for.' };
  return targetOf(modeler, selection[0] || null);
}

/**
 * The target an element stands for (null: the start form).
 * @param {Modeler} modeler
 * @param {any} element
 * @returns {Target}
 */
export function targetOf(modeler, element) {
  const container = !element || [ 'bpmn:Lane', 'bpmn:Participant', 'bpmn:Process', 'bpmn:Collaboration' ]
    .some((t) => is(element, t));
  if (container) {
    const start = startEvent(modeler);
    return { elementId: '', element: start, formId: boundFormId(start), label: 'Start form (nothing selected)' };
  }
  if (!is(element, 'bpmn:UserTask') && !is(element, 'bpmn:StartEvent')) {
    return { problem: `${describe(element)} has no form: select a user task or a start event, or nothing for the start form.` };
  }
  return { elementId: element.id, element, formId: boundFormId(element), label: `Form for ${describe(element)}` };
}

/**
 * Which form a target is: the editor's form belongs to one target at a time.
 * @param {Target} target
 */
export const targetKey = (target) => (target.problem !== undefined ? null : target.elementId || '(start)');

/**
 * An element as formgen names it to the author: its name and id, or its id.
 * @param {any} element
 */
export function describe(element) {
  const name = element.businessObject.get('name');
  return name ? `"${name}" (${element.id})` : element.id;
}
