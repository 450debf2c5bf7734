// What a generation is for, read from the modeller: the selected step (or the start form), the form id it
// binds or will get, and how the page names it. Knows bpmn-js's model, nothing of formgen's API or the page.
import { is } from 'bpmn-js/lib/util/ModelUtil';

const modelerElement = (element) => (element && element.labelTarget) || element;

/** The top-level start event: "nothing selected" means the start form, bound to this event. */
function startEvent(modeler) {
  const starts = modeler.get('elementRegistry').filter((e) =>
    !e.labelTarget && is(e, 'bpmn:StartEvent') && is(e.businessObject.$parent, 'bpmn:Process'));
  return starts.length === 1 ? starts[0] : null;
}

/** The form id the element binds (zeebe:formDefinition formId), or ''. */
export function boundFormId(element) {
  const ext = element && element.businessObject && element.businessObject.get('extensionElements');
  const def = ext && ext.get('values').find((v) => is(v, 'zeebe:FormDefinition'));
  return (def && def.get('formId')) || '';
}

/** The process a step belongs to (through sub-processes); for the start form, the one process there is. */
function processOf(modeler, element) {
  for (let bo = element && element.businessObject; bo; bo = bo.$parent) {
    if (is(bo, 'bpmn:Process')) return bo;
  }
  const definitions = modeler.getDefinitions();
  const processes = ((definitions && definitions.get('rootElements')) || []).filter((r) => is(r, 'bpmn:Process'));
  return processes.length === 1 ? processes[0] : null;
}

/**
 * The id a generation's form will carry, as formgen chooses it (gate/form_id.rs): the id the step binds,
 * else "<process id>-<step id>" ("-start" for the start form), numbered on when another step binds it.
 */
export function proposedFormId(modeler, target) {
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
 * What a generation is for: the selected user task or start event, or the start form when nothing (or only
 * a lane or pool) is selected. Any other element has no form, which is said instead of guessing.
 */
export function current(modeler) {
  const selection = [...new Set(modeler.get('selection').get().map(modelerElement))];
  if (selection.length > 1) return { problem: 'Several elements are selected: select the one step the form is for.' };
  const element = selection[0] || null;
  const container = !element || ['bpmn:Lane', 'bpmn:Participant', 'bpmn:Process', 'bpmn:Collaboration']
    .some((t) => is(element, t));
  if (container) {
    const start = startEvent(modeler);
    return { elementId: '', element: start, formId: boundFormId(start), label: 'Start form (nothing selected)' };
  }
  if (!is(element, 'bpmn:UserTask') && !is(element, 'bpmn:StartEvent')) {
    return { problem: `${describe(element)} has no form: select a user task or a start event, or nothing for the start form.` };
  }
  const formId = boundFormId(element);
  return { elementId: element.id, element, formId, label: `Form for ${describe(element)}` };
}

/** Which form a target is: the editor's form belongs to one target at a time. */
export const key = (target) => (target.problem ? null : target.elementId || '(start)');

/** An element as the page names it to the author: its name and id, or its id. */
export function describe(element) {
  const name = element.businessObject.get('name');
  return name ? `"${name}" (${element.id})` : element.id;
}
