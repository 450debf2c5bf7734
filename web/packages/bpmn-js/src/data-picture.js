// The step's data picture and the contract's findings as DOM: what formgen's outline says is known before the
// step, what its form must supply, what the process decides on after it, and which of the project's forms and
// decisions were read; and what the check found in the bound form. Plain DOM, so the same rendering serves
// the properties panel's entry and a host's own panel.
//
// The outline's `step` (absent when formgen drew no picture for the step):
//   {elementId, knownBefore: [{name, from, ...}], toSupply: [{name, why}], decidedOn: [{name, conditions: []}],
//    forms: [ids], decisions: [ids]}

/** @typedef {import('@formgen/client').Outline} Outline */
/** @typedef {import('@formgen/client').Finding} Finding */

/**
 * Renders the outline answer's data picture into `container` (replacing what it held); returns whether
 * formgen drew a picture for the step ('present') or not ('absent': the process's variables instead).
 * @param {HTMLElement} container
 * @param {Outline} answer
 * @returns {'present' | 'absent'}
 */
export function renderDataPicture(container, answer) {
  const { step } = answer;
  if (!step) {

    // formgen drew no picture for this step: say so, and show what it does know, the process's variables.
    const variables = (answer.process && answer.process.variables) || [];
    container.replaceChildren(
      muted('formgen drew no data picture for this step.'),
      section('Variables of the process', variables.map((/** @type {string} */ name) => ({ name, note: '' })), 'data-inline'));
    return 'absent';
  }
  container.replaceChildren(
    section('Known before', (step.knownBefore || []).map((v) => ({ name: v.name, note: v.from }))),
    section('The form supplies', (step.toSupply || []).map((v) => ({ name: v.name, note: v.why }))),
    section('Decided on', (step.decidedOn || []).map((v) => ({ name: v.name, note: (v.conditions || []).join('; ') }))),
    read(step.forms || [], step.decisions || []));
  return 'present';
}

/**
 * A list of findings, errors first; each names its field (label, else key) or "the form".
 * @param {Finding[]} findings
 * @returns {HTMLElement}
 */
export function findingList(findings) {
  const order = { error: 0, warning: 1, info: 2 };
  const sorted = [ ...findings ].sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3));
  const list = el('ul', 'formgen-findings');
  for (const finding of sorted) {
    const li = el('li', `formgen-finding formgen-finding-${finding.severity}`);
    li.dataset.code = finding.code;
    li.dataset.severity = finding.severity;
    if (finding.key) li.dataset.key = finding.key;
    const where = finding.key ? (finding.label || finding.key) : 'the form';
    li.append(el('span', 'formgen-finding-where', `${where}: `), el('span', 'formgen-finding-message', finding.message));
    if (finding.expression) li.title = finding.expression;
    list.append(li);
  }
  return list;
}

/**
 * @param {string} title
 * @param {Array<{ name: string, note: string }>} entries
 * @param {string} [listClass]
 */
function section(title, entries, listClass = 'data-list') {
  const wrap = el('section', 'data-section');
  wrap.dataset.section = title;
  wrap.append(el('h3', '', title));
  if (!entries.length) {
    wrap.append(muted('nothing'));
    return wrap;
  }
  const list = el('ul', listClass);
  for (const { name, note } of entries) {
    const li = el('li');
    li.append(el('code', '', name));
    if (note) li.append(' ', el('span', 'muted', note));
    list.append(li);
  }
  wrap.append(list);
  return wrap;
}

/**
 * @param {string[]} forms
 * @param {string[]} decisions
 */
function read(forms, decisions) {
  const line = el('p', 'data-read');
  line.dataset.section = 'Read';
  if (!forms.length && !decisions.length) {
    line.append(muted('No other forms or decisions of the project were read.'));
    return line;
  }
  line.append('Read: ');

  /** @type {(label: string, ids: string[]) => void} */
  const list = (label, ids) => {
    line.append(el('span', 'muted', `${label} `));
    ids.forEach((id, i) => line.append(...(i ? [ ', ' ] : []), el('code', '', id)));
  };
  if (forms.length) list(forms.length === 1 ? 'form' : 'forms', forms);
  if (forms.length && decisions.length) line.append(' · ');
  if (decisions.length) list(decisions.length === 1 ? 'decision' : 'decisions', decisions);
  return line;
}

/**
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 */
export function el(tag, className = '', text = '') {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** @param {string} text */
export const muted = (text) => el('p', 'muted', text);

/** @param {string} text */
export const errorLine = (text) => el('p', 'error', text);
