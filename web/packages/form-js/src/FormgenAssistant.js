// The `formgenAssistant` service of a form-js editor: "Generate" and "Refine" with formgen, as Camunda's
// form assistant does in the editor's palette. The stream's drafts are shown in the editor as a read-only
// preview; the proposal replaces them; Cancel (or an error) puts the author's form back. The contract's
// findings are drawn next to their fields (and, without a field, for the form as a whole).
//
// formgen's core runs in the browser (@formgen/core, WebAssembly): it checks the form as the author edits
// and drafts with the builtin, so the editor needs no server. A formgen service, when one is configured and
// its capability probe finds Workers, adds its model Workers; drafting with them goes through the service.
//
// It fires, on the editor's event bus:
//   formgen.capability.changed  {capability}
//   formgen.state.changed       {busy, proposal}  a generation started or ended; whether the editor holds a
//                                                 proposal for the current target
//   formgen.proposal            {proposal, target} the proposal is in the editor
import { createClient, groupFindings } from '@formgen/client';
import { check as checkLocally, draft as draftLocally, ready } from '@formgen/core/editors';

/** @typedef {import('@formgen/client').FormgenClient} FormgenClient */
/** @typedef {import('@formgen/client').FormSchema} FormSchema */
/** @typedef {import('@formgen/client').Capability} Capability */
/** @typedef {import('@formgen/client').FormgenError} FormgenError */
/** @typedef {import('@formgen/client').Finding} Finding */
/** @typedef {import('@formgen/client').Proposal} Proposal */
/** @typedef {import('@formgen/client').ProcessContext} ProcessContext */

/**
 * What the form being edited is for, as the host knows it: a key naming the target (a step), how to say it,
 * the form id it binds or will get, or why nothing can be generated (`problem`).
 * @typedef {{ key?: string | null, label?: string, problem?: string, formId?: string, proposedFormId?: string }} FormTarget
 */

/**
 * `formgen` in the form editor's config.
 * @typedef {object} FormgenFormConfig
 * @property {FormgenClient | null} [client] the formgen service's client (share one between modules); else
 *   one is made from `url` and `token`; neither: no service, everything runs in the browser
 * @property {string} [url] a formgen service's base URL, for its model Workers (default: none)
 * @property {string | (() => string)} [token] a Bearer token
 * @property {HTMLElement | string} [container] where the panel goes (default: the editor's palette footer)
 * @property {() => FormTarget} [target] the current target (default: a form of its own, no process)
 * @property {(target: FormTarget) => Promise<ProcessContext>} [request] the process, step and project for a
 *   target (default: none: the brief is the whole request)
 * @property {string} [note] a sentence after the proposal's line (e.g. what saves it)
 * @property {boolean} [probe] ask the capability at start (default true)
 * @property {import('@formgen/core/editors').CoreSource} [core] where formgen's core (`formgen_core.wasm`) is:
 *   its URL, bytes or compiled module (default: beside the core package's own source, which a bundle must
 *   override); the page loads it once for every module
 * @property {number} [checkDelay] ms after the author's last edit before the form is checked (default 300;
 *   0: only the Check button checks)
 */

/**
 * The service's state: `offline` when none is configured; drafting goes through the service only when
 * it is `available` (its probe found Workers), else the builtin drafts in the browser.
 * @typedef {{ state: 'pending' | 'offline' | 'available' | 'unavailable' | 'unauthorized' | 'error', value?: Capability,
 *   error?: FormgenError }} CapabilityState
 */

const CHECK_DELAY_MS = 300; // long enough to let a word be typed, short enough to feel live

/** @type {() => FormTarget} */
const NO_TARGET = () => ({ key: '(form)', label: 'This form' });

export default class FormgenAssistant {

  /**
   * @param {FormgenFormConfig | undefined} config
   * @param {any} eventBus
   * @param {any} formEditor
   * @param {any} formFieldRegistry
   * @param {any} slotFillManager
   */
  constructor(config, eventBus, formEditor, formFieldRegistry, slotFillManager) {
    const options = config || {};

    /** @type {FormgenClient | null} */
    this.client = options.client || (options.url ? createClient({ baseUrl: options.url, token: options.token }) : null);

    /** @type {CapabilityState} */
    this.capability = { state: 'pending' };

    /** @type {string | null} the target key whose proposal the editor holds */
    this.proposalFor = null;

    /** @type {string | null} the target key the editor's form belongs to */
    this.editorFor = null;

    /** @type {Finding[] | undefined} the findings drawn, for the form in the editor */
    this.findings = undefined;

    /** @type {AbortController | null} */
    this._inFlight = null;

    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._checkTimer = undefined;
    this._checks = 0; // the newest check's number: an older one that ends later is not drawn
    this._options = options;
    this._eventBus = eventBus;
    this._formEditor = formEditor;
    this._registry = formFieldRegistry;
    this._target = options.target || NO_TARGET;
    this._request = options.request || (async () => ({}));

    /** @type {Promise<unknown>} */
    this._imports = Promise.resolve();
    this._ui = createPanel();
    this._wire();

    if (options.container) {
      const parent = typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
      if (parent) parent.append(this._ui.root);
    } else {
      slotFillManager.addFill('editor-palette__footer', 'formgen', {
        render: (/** @type {HTMLElement} */ container) => {
          container.append(this._ui.root);
          return () => this._ui.root.remove();
        },
      });
    }

    // The findings live in the canvas's DOM, which form-js redraws: draw them again after every render.
    eventBus.on([ 'formEditor.rendered', 'changed' ], () => this._drawBadges());
    eventBus.on('form.destroy', () => {
      this.cancel();
      clearTimeout(this._checkTimer);
    });

    // The author's edits (and undo/redo) go through the command stack; an import clears it ('clear'),
    // and an imported proposal comes with its own findings.
    eventBus.on('commandStack.changed', (/** @type {{ trigger?: string }} */ event) => {
      if (event && event.trigger !== 'clear') this._scheduleCheck();
    });
    ready(options.core); // start loading the core now: the first check or draft then finds it ready
    if (options.probe !== false) this.probe();
    else this._setCapability({ state: this.client ? 'pending' : 'offline' });
  }

  /** The panel's root element (a host may place it anywhere). */
  get element() {
    return this._ui.root;
  }

  /** Whether a generation runs. */
  get busy() {
    return this._inFlight !== null;
  }

  /** Asks the formgen service which Workers are in reach (again: after a sign-in, say). */
  async probe() {
    if (!this.client) {
      this._setCapability({ state: 'offline' });
      return this.capability;
    }
    this._setCapability({ state: 'pending' });
    const result = await this.client.capability();
    if (!result.ok) {
      this._setCapability({ state: result.error.status === 401 ? 'unauthorized' : 'error', error: result.error });
    } else {
      const value = result.value;
      this._setCapability({ state: value.available && value.workers.length ? 'available' : 'unavailable', value });
    }
    return this.capability;
  }

  /**
   * Points the module at another formgen service (a settings change), or at none (`null`), and probes it.
   * @param {FormgenClient | null} client
   */
  setClient(client) {
    this.client = client;
    return this.probe();
  }

  /** Whether a generation goes through the service (its Workers), rather than the builtin in the browser. */
  get viaService() {
    return this.capability.state === 'available' && this.client !== null;
  }

  /** @param {CapabilityState} capability */
  _setCapability(capability) {
    this.capability = capability;
    this._renderCapability();
    this._eventBus.fire('formgen.capability.changed', { capability });
    this.update();
  }

  /**
   * Call when the target may have changed (another step selected): the buttons follow, and an empty editor
   * takes the id the target's form has or will get, so the id shown is the one the form will have.
   */
  update() {
    const target = this._target();
    const key = target.problem ? null : target.key ?? null;
    const { generate, refine, check } = this._ui;
    const busy = this.busy;
    const proposal = key !== null && this.proposalFor === key;
    generate.disabled = busy || key === null;
    refine.disabled = busy || !proposal;
    check.disabled = busy || key === null;
    this._ui.target.textContent = target.problem || '';
    this._eventBus.fire('formgen.state.changed', { busy, proposal });
    if (key === null || key === this.editorFor || this.proposalFor !== null) return;
    const current = this._schema();
    if (!current || (current.components && current.components.length)) return;
    this.editorFor = key;
    const id = target.formId || target.proposedFormId;
    this._imports = this._imports.then(() => this._formEditor.importSchema({ type: 'default', ...(id ? { id } : {}), components: [] }))
      .catch((err) => this._showError(`The form editor could not start an empty form (${err.message}).`));
  }

  /** The editor's form, or null before it holds one. */
  _schema() {
    try {
      return this._formEditor.saveSchema();
    } catch {
      return null; // the editor is still being set up
    }
  }

  /** Whether the editor holds a proposal for the current target. */
  hasProposal() {
    const target = this._target();
    return !target.problem && (target.key ?? null) !== null && this.proposalFor === target.key;
  }

  /**
   * Generates (or, with `refine`, refines the form as it stands) for the current target.
   * @param {{ refine?: boolean, description?: string, worker?: string }} [options]
   * @returns {Promise<Proposal | null>}
   */
  async generate(options = {}) {
    const target = this._target();
    if (target.problem) {
      this._showError(target.problem);
      return null;
    }
    if (this.busy) return null;
    const refine = Boolean(options.refine);
    this._showError('');
    const controller = new AbortController();
    this._inFlight = controller;
    this._startProgress();
    this.update();
    await this._imports;
    const editor = this._formEditor.saveSchema();
    let drafted = false; // the editor shows a draft: the author's form comes back unless a proposal replaces it
    try {
      const context = await this._request(target);

      // The id the editor shows for this target (the author may have changed it there), else the bound or the
      // proposed one: the form keeps its id over refinements, before and after it is bound.
      // Without a host's target the editor's form is the one being drafted.
      const own = this.editorFor === target.key || !this._options.target ? editor.id : '';
      const request = {
        ...context,
        description: options.description ?? this._ui.brief.value,
        formId: target.formId || own || target.proposedFormId || '',
        schema: refine ? editor : undefined,
      };
      let result = !this.viaService || !this.client ? await this._draftLocally(request) : await this.client.generate({
        ...request,
        worker: options.worker ?? this._ui.worker.value,
      }, {
        signal: controller.signal,
        onProgress: (progress) => { this._progress = progress; },
        onDraft: (draft) => {
          this._imports = this._imports.then(async () => {
            if (controller.signal.aborted) return;
            try {
              await this._formEditor.importSchema(draft);
              drafted = true;
              this._previewing(true); // a preview, read-only until the proposal replaces it
            } catch { /* a draft the editor cannot show is skipped: the proposal decides */ }
          });
        },
        onWarning: (warning) => this._addWarning(warning),
        onRepair: () => { this._progressNote = 'the answer is being repaired'; },
      });
      await this._imports;
      if (!result.ok && result.error.code === 'unreachable' && !drafted) {

        // The service went away since its probe: the builtin in the browser drafts instead, and says so.
        const unreachable = result.error.message;
        result = await this._draftLocally(request);
        if (result.ok) this._addWarning(`${unreachable} The builtin drafted this form in the browser instead.`);
      }
      if (!result.ok) {
        this._showError(result.error.code === 'aborted'
          ? 'Cancelled; the form editor is as it was.'
          : [ result.error.message, ...(result.error.problems || []) ].join(' '));
        return null;
      }
      const proposal = result.value;
      try {
        await this._formEditor.importSchema(proposal.schema);
        drafted = false;
      } catch (err) {
        this._showError(`The proposal could not be shown in the form editor (${err instanceof Error ? err.message : err}).`);
        return null;
      }
      this.proposalFor = target.key ?? null;
      this.editorFor = this.proposalFor;
      this._showProposal(proposal);
      this._eventBus.fire('formgen.proposal', { proposal, target });
      return proposal;
    } finally {
      this._previewing(false);
      if (drafted) await this._formEditor.importSchema(editor).catch(() => {});
      this._inFlight = null;
      this._stopProgress();
      this.update();
    }
  }

  /**
   * The builtin's draft, made by the core in the browser.
   * @param {ProcessContext & { description?: string, formId?: string, schema?: FormSchema }} request
   * @returns {Promise<import('@formgen/client').Result<Proposal>>}
   */
  async _draftLocally(request) {
    const loaded = await ready(this._options.core);
    return loaded.ok ? draftLocally(request) : loaded;
  }

  /** Stops the generation in flight: formgen drops the model call with the request. */
  cancel() {
    if (this._inFlight) this._inFlight.abort();
  }

  /**
   * Checks the form as it stands, in the browser (formgen's core): the schema gate and, with a process,
   * the step's contract; draws the findings and says so. Resolves with them (undefined when it could not
   * check).
   * @returns {Promise<Finding[] | undefined>}
   */
  async check() {
    clearTimeout(this._checkTimer);
    return this._check(false);
  }

  /** Checks the form a moment after the author's last edit (the `checkDelay`). */
  _scheduleCheck() {
    const delay = this._options.checkDelay ?? CHECK_DELAY_MS;
    clearTimeout(this._checkTimer);
    if (delay <= 0) return;
    this._checkTimer = setTimeout(() => { this._check(true); }, delay);
  }

  /**
   * @param {boolean} quiet as the author edits: only the findings change (no sentence, no warnings),
   *   and a step that cannot be checked says nothing
   * @returns {Promise<Finding[] | undefined>}
   */
  async _check(quiet) {
    const number = ++this._checks;
    const target = this._target();
    if (target.problem || (quiet && this.busy)) {
      if (!quiet) this._showError(target.problem || '');
      return undefined;
    }
    if (!quiet) this._showError('');
    const loaded = await ready(this._options.core);
    const schema = this._schema();
    const context = loaded.ok && schema ? await this._request(target) : null;
    if (number !== this._checks) return undefined; // a newer check is on its way
    const result = loaded.ok ? (context && schema ? checkLocally({ ...context, schema, formId: schema.id || target.formId || '' }) : null) : loaded;
    if (!result) return undefined;
    if (!result.ok) {
      if (!quiet) this._showError(result.error.message);
      return undefined;
    }
    if (!quiet) {
      this._ui.warnings.replaceChildren(...result.value.warnings.map((w) => el('li', '', w)));
      this._ui.info.textContent = `Checked form "${schema && schema.id}": the gate accepts it.`;
    }
    this.setFindings(result.value.findings);
    this._eventBus.fire('formgen.checked', { findings: result.value.findings, quiet });
    return result.value.findings;
  }

  /**
   * Draws these findings: next to the field with their key, and for the form as a whole when no field has
   * it. `undefined` clears them (a service that makes no contract check).
   * @param {Finding[] | undefined} findings
   */
  setFindings(findings) {
    this.findings = findings;
    const box = this._ui.findings;
    box.replaceChildren();
    box.hidden = !Array.isArray(findings);
    if (!Array.isArray(findings)) {
      this._drawBadges();
      return;
    }
    const { form, byKey } = groupFindings(findings);
    const keys = new Set(this._registry.getAll().map((/** @type {any} */ f) => f.key).filter(Boolean));
    // a finding whose key no field has is about the form as it stands (a field it lacks)
    const unplaced = [ ...byKey.entries() ].filter(([ key ]) => !keys.has(key)).flatMap(([ , list ]) => list);
    const forForm = [ ...form, ...unplaced ];
    box.append(el('h3', 'formgen-findings-title', findings.length
      ? `${findings.length} finding${findings.length === 1 ? '' : 's'} against the process`
      : 'No findings: the form supplies what the process needs from this step.'));
    if (forForm.length) box.append(findingList(forForm, 'formgen-findings-form'));
    this._drawBadges();
  }

  /**
   * Adds a host's own button to the panel's row of actions (e.g. one that saves or binds the form).
   * @param {HTMLElement} element
   */
  addAction(element) {
    this._ui.actions.insertBefore(element, this._ui.count);
  }

  /**
   * Shows a sentence in the panel's info line (a host's own action, say).
   * @param {string} text
   */
  say(text) {
    this._ui.info.textContent = text;
  }

  // ----------------------------------------------------------------------------------------------------

  _wire() {
    const ui = this._ui;
    ui.generate.addEventListener('click', () => { this.generate(); });
    ui.refine.addEventListener('click', () => { this.generate({ refine: true }); });
    ui.check.addEventListener('click', () => { this.check(); });
    ui.cancel.addEventListener('click', () => this.cancel());
    ui.brief.addEventListener('input', () => this._showCount());

    // Leaving the page drops the request, and formgen then drops the model call: nobody pays for a lost answer.
    window.addEventListener('pagehide', () => this.cancel());
  }

  _renderCapability() {
    const ui = this._ui;
    const { state, value, error } = this.capability;
    ui.root.dataset.capability = state;

    // The builtin in the browser always drafts; only while the service's answer is awaited is there no
    // button (it could offer the service's Workers a moment later).
    if (state === 'pending') ui.controls.remove();
    else if (ui.controls.parentNode !== ui.root) ui.target.after(ui.controls);
    ui.status.className = `formgen-status ${[ 'unauthorized', 'error' ].includes(state) ? 'error' : 'muted'}`;
    const builtin = 'Drafts come from the builtin, in this browser.';
    ui.status.textContent = state === 'pending' ? 'Asking formgen which Workers are in reach…'
      : state === 'offline' ? ''
        : state === 'unavailable' ? `The formgen service offers no model Worker. ${builtin}`
          : error ? `${error.message} ${builtin}` : '';
    const select = ui.worker;
    const chosen = select.value;
    const workers = state === 'available' && value ? value.workers : [];
    select.replaceChildren(...(workers.length
      ? workers.map((w) => new Option(`${w.name} (${w.model})`, w.name))
      : [ new Option('builtin (in this browser)', '') ]));
    if (chosen && workers.some((w) => w.name === chosen)) select.value = chosen;
    ui.workerRow.hidden = workers.length < 2; // one Worker: nothing to pick
    this._showCount();
  }

  _showCount() {
    const limit = this.viaService && this.capability.value ? this.capability.value.limits.descriptionChars : 0;
    const length = this._ui.brief.value.length;

    // The limit is only shown, never enforced here: formgen's own answer says what is wrong, in one place.
    this._ui.count.textContent = limit ? `${length} / ${limit}` : '';
    this._ui.count.classList.toggle('over', Boolean(limit) && length > limit);
  }

  /** @param {string} sentence */
  _showError(sentence) {
    this._ui.error.textContent = sentence;
  }

  /** @param {string} warning */
  _addWarning(warning) {
    this._ui.warnings.append(el('li', '', warning));
  }

  /** @param {Proposal & { local?: boolean }} proposal */
  _showProposal(proposal) {
    const { inputTokens = 0, outputTokens = 0 } = proposal.usage || {};
    const note = this._options.note ? ` · ${this._options.note}` : '';
    this._ui.info.textContent = proposal.local
      ? `Proposal by the builtin (${proposal.model}), drafted in this browser${note}`
      : `Proposal by ${proposal.worker} (${proposal.model}) · ${inputTokens} tokens in, ${outputTokens} out`
        + ` · ${proposal.attempts} attempt${proposal.attempts === 1 ? '' : 's'}${note}`;
    this._ui.warnings.replaceChildren(...(proposal.warnings || []).map((w) => el('li', '', w)));
    this.setFindings(proposal.findings);
  }

  _startProgress() {
    const started = performance.now();
    const limit = this.viaService && this.capability.value ? ` (at most ${this.capability.value.limits.modelTimeoutS} s)` : '';

    /** @type {{ attempt: number, tokens: number, components: number } | null} */
    this._progress = null;
    this._progressNote = '';
    this._ui.info.textContent = '';
    this._ui.warnings.replaceChildren();
    const tick = () => {
      const p = this._progress;
      const soFar = p ? ` · ${p.components} fields so far, ${p.tokens} tokens${p.attempt > 1 ? `, attempt ${p.attempt}` : ''}` : '';
      const note = this._progressNote ? ` · ${this._progressNote}` : '';
      this._ui.elapsed.textContent = `${this.viaService ? 'The model is' : 'The builtin is'} working… ${Math.floor((performance.now() - started) / 1000)} s${soFar}${note}${limit}`;
    };
    tick();
    this._timer = setInterval(tick, 250);
    this._ui.progress.hidden = false;
  }

  _stopProgress() {
    clearInterval(this._timer);
    this._ui.progress.hidden = true;
  }

  /**
   * While drafts stream in, the editor shows a preview nobody can edit: `inert` takes the form and its
   * properties out of reach of mouse and keyboard (the panel, with Cancel, stays usable).
   * @param {boolean} on
   */
  _previewing(on) {
    const container = this._formEditor._container;
    if (!container) return;
    container.classList.toggle('formgen-previewing', on);
    for (const part of container.querySelectorAll('.fjs-form-container, .fjs-properties-container')) {
      /** @type {HTMLElement} */ (part).inert = on;
    }
  }

  /** Draws a badge with the findings of each field into the field's element on the canvas. */
  _drawBadges() {
    const container = this._formEditor._container;
    if (!container) return;
    for (const badge of container.querySelectorAll('.formgen-badge')) badge.remove();
    if (!Array.isArray(this.findings) || !this.findings.length) return;
    const { byKey } = groupFindings(this.findings);
    for (const field of this._registry.getAll()) {
      const list = field.key && byKey.get(field.key);
      if (!list) continue;
      const element = container.querySelector(`.fjs-form-container [data-id="${CSS.escape(field.id)}"]`);
      if (!element) continue;
      const worst = list.some((/** @type {Finding} */ f) => f.severity === 'error') ? 'error'
        : list.some((/** @type {Finding} */ f) => f.severity === 'warning') ? 'warning' : 'info';
      const badge = el('div', `formgen-badge formgen-badge-${worst}`);
      badge.dataset.key = field.key;
      badge.setAttribute('role', 'note');
      badge.append(findingList(list, ''));
      element.append(badge);
    }
  }
}

FormgenAssistant.$inject = [ 'config.formgen', 'eventBus', 'formEditor', 'formFieldRegistry', 'slotFillManager' ];

// The panel ///////////

function createPanel() {
  const root = el('div', 'formgen-panel');
  root.dataset.capability = 'pending';
  const status = el('div', 'formgen-status muted');
  const target = el('div', 'formgen-target error');
  const controls = el('div', 'formgen-controls');
  const workerRow = el('div', 'formgen-row formgen-worker-row');
  const workerLabel = el('label', '', 'Worker');
  const worker = /** @type {HTMLSelectElement} */ (el('select', 'formgen-worker'));
  const workerId = `formgen-worker-${Math.random().toString(36).slice(2, 8)}`;
  worker.id = workerId;
  workerLabel.setAttribute('for', workerId);
  workerRow.append(workerLabel, worker);
  workerRow.hidden = true;
  const brief = /** @type {HTMLTextAreaElement} */ (el('textarea', 'formgen-brief'));
  brief.rows = 4;
  brief.setAttribute('aria-label', 'Brief');
  brief.placeholder = 'What should the form ask for? e.g. "Let the lead approve or reject, with a reason when rejecting."';
  const actions = el('div', 'formgen-row formgen-actions');
  const generate = button('Generate form', 'formgen-generate primary');
  const refine = button('Refine', 'formgen-refine', 'Send the form as it stands with the new brief');
  const check = button('Check', 'formgen-check', 'Check the form as it stands against the process');
  const count = el('span', 'formgen-count muted');
  actions.append(generate, refine, check, count);
  controls.append(workerRow, brief, actions);
  const progress = el('div', 'formgen-row formgen-progress');
  progress.hidden = true;
  const spinner = el('span', 'formgen-spinner');
  spinner.setAttribute('aria-hidden', 'true');
  const elapsed = el('span', 'formgen-elapsed', 'Working…');
  const cancel = button('Cancel', 'formgen-cancel');
  progress.append(spinner, elapsed, cancel);
  const error = el('div', 'formgen-error error');
  error.setAttribute('role', 'alert');
  const info = el('div', 'formgen-info muted');
  const warnings = el('ul', 'formgen-warnings');
  const findings = el('div', 'formgen-findings-box');
  findings.hidden = true;
  root.append(status, target, progress, error, info, warnings, findings);
  return { root, status, target, controls, workerRow, worker, brief, actions, generate, refine, check, count,
    progress, elapsed, cancel, error, info, warnings, findings };
}

/**
 * @param {string} text
 * @param {string} className
 * @param {string} [title]
 */
function button(text, className, title) {
  const b = /** @type {HTMLButtonElement} */ (el('button', className, text));
  b.type = 'button';
  if (title) b.title = title;
  return b;
}

/**
 * @param {Finding[]} findings
 * @param {string} className
 */
function findingList(findings, className) {
  const order = { error: 0, warning: 1, info: 2 };
  const list = el('ul', `formgen-findings ${className}`.trim());
  for (const finding of [ ...findings ].sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3))) {
    const li = el('li', `formgen-finding formgen-finding-${finding.severity}`);
    li.dataset.code = finding.code;
    li.dataset.severity = finding.severity;
    if (finding.key) li.dataset.key = finding.key;
    li.append(el('span', 'formgen-finding-message', finding.message));
    if (finding.expression) li.title = finding.expression;
    list.append(li);
  }
  return list;
}

/**
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 */
function el(tag, className = '', text = '') {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}
