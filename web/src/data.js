// The "Data" panel beside the brief: what formgen reads from the process (and the project's other forms
// and decisions) about the selected step: what is known before it, what its form supplies, what the
// process decides on afterwards, and which sibling forms and decisions were read. It asks formgen's
// `outline` for it, so the panel shows exactly the picture a generation works from, and knows nothing of
// how that picture is made.
//
// The answer's `step` (absent when formgen could not resolve a step or start form):
//   {elementId, knownBefore: [{name, from, used, entered, inForms}], toSupply: [{name, why}], decidedOn: [{name, conditions: []}],
//    forms: [ids], decisions: [ids]}

const DEBOUNCE_MS = 250; // a click on a shape, then another: only the last one is asked about

/**
 * Wires the panel to the page. `request(target)` builds the outline request's body for a target;
 * `ready()` says whether formgen can be asked at all (after the probe, signed in). Returns `{refresh}`:
 * call it whenever the selection, the process or the held forms change.
 */
export function createDataPanel({ api, headers, errorSentence, ready, currentTarget, describe, request }) {
  const frame = document.getElementById('formgen-data-frame');
  const panel = document.getElementById('formgen-data');
  const stepLabel = document.getElementById('formgen-data-step');
  const body = document.getElementById('formgen-data-body');
  let timer = null;
  let inFlight = null;
  let shown = ''; // the request body the panel shows the answer to: the same question is not asked twice

  function setState(value, ...children) {
    panel.dataset.state = value;
    body.replaceChildren(...children);
  }

  async function update() {
    frame.hidden = !ready();
    if (frame.hidden) {
      shown = '';
      return;
    }
    const target = currentTarget();
    if (target.problem) {
      if (inFlight) inFlight.abort();
      shown = '';
      stepLabel.textContent = '';
      delete panel.dataset.step;
      setState('idle', muted('Select a user task or a start event (or nothing, for the start form) to see its data.'));
      return;
    }
    const sent = JSON.stringify(await request(target));
    if (sent === shown) return;
    if (inFlight) inFlight.abort();
    const controller = new AbortController();
    inFlight = controller;
    stepLabel.textContent = target.elementId ? `of ${describe(target.element)}` : 'of the start form';
    panel.dataset.state = 'loading';
    try {
      const res = await fetch(`${api}outline`, { method: 'POST', headers: headers(), body: sent, signal: controller.signal });
      if (!res.ok) {
        shown = '';
        return setState('error', error(await errorSentence(res)));
      }
      const answer = await res.json();
      shown = sent;
      render(answer);
    } catch (err) {
      if (err.name === 'AbortError') return; // a newer question is on its way
      shown = '';
      setState('error', error(`formgen could not be reached (${err.message}).`));
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  function render(answer) {
    const { step } = answer;
    if (!step) {
      // formgen drew no picture for this step: say so, and show what it does know, the process's variables.
      panel.dataset.step = 'absent';
      const variables = (answer.process && answer.process.variables) || [];
      return setState('ready',
        muted('formgen drew no data picture for this step.'),
        section('Variables of the process', variables.map((name) => ({ name, note: '' })), 'data-inline'));
    }
    panel.dataset.step = 'present';
    setState('ready',
      section('Known before', (step.knownBefore || []).map((v) => ({ name: v.name, note: v.from }))),
      section('The form supplies', (step.toSupply || []).map((v) => ({ name: v.name, note: v.why }))),
      section('Decided on', (step.decidedOn || []).map((v) => ({ name: v.name, note: (v.conditions || []).join('; ') }))),
      read(step.forms || [], step.decisions || []));
  }

  return {
    refresh() {
      clearTimeout(timer);
      timer = setTimeout(() => update().catch((err) => setState('error', error(err.message))), DEBOUNCE_MS);
    },
  };
}

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

function read(forms, decisions) {
  const line = el('p', 'data-read');
  line.dataset.section = 'Read';
  if (!forms.length && !decisions.length) {
    line.append(muted('No other forms or decisions of the project were read.'));
    return line;
  }
  line.append('Read: ');
  const list = (label, ids) => {
    line.append(el('span', 'muted', `${label} `));
    ids.forEach((id, i) => line.append(...(i ? [', '] : []), el('code', '', id)));
  };
  if (forms.length) list(forms.length === 1 ? 'form' : 'forms', forms);
  if (forms.length && decisions.length) line.append(' · ');
  if (decisions.length) list(decisions.length === 1 ? 'decision' : 'decisions', decisions);
  return line;
}

function el(tag, className = '', text = '') {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

const muted = (text) => el('p', 'muted', text);
const error = (text) => el('p', 'error', text);
