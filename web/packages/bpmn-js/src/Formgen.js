// The `formgen` service of a bpmn-js modeller: keeps the selected step's data picture (outline) and the
// findings for its bound form (check) up to date, generates a step's form and binds the step to it through
// the command stack. The picture, the check and the builtin's draft come from formgen's core in the browser
// (@formgen/core, WebAssembly), so the modeller needs no server; a formgen service, when one is configured
// and its capability probe finds Workers, adds its model Workers for "Generate form". It fires, on the
// modeller's event bus:
//   formgen.capability.changed  {capability}   the probe's state
//   formgen.picture.changed     {picture}      the selected step's picture and findings
//   formgen.generation.changed  {generation}   a generation started, progressed or ended
//   formgen.proposal            {target, proposal, binding}   a proposal bound to its step
import { createClient } from '@formgen/client';
import { check as checkLocally, draft as draftLocally, outline as outlineLocally, ready } from '@formgen/core/editors';

import { boundForm, bindForm, embedForm } from './binding.js';
import { currentTarget, proposedFormId, targetKey, targetOf } from './target.js';

/** @typedef {import('@formgen/client').FormgenClient} FormgenClient */
/** @typedef {import('@formgen/client').FormSchema} FormSchema */
/** @typedef {import('@formgen/client').Capability} Capability */
/** @typedef {import('@formgen/client').FormgenError} FormgenError */
/** @typedef {import('@formgen/client').Outline} Outline */
/** @typedef {import('@formgen/client').Finding} Finding */
/** @typedef {import('@formgen/client').Proposal} Proposal */
/** @typedef {import('@formgen/client').ProcessContext} ProcessContext */
/** @typedef {import('./target.js').Target} Target */

/**
 * `formgen` in the modeller's config.
 * @typedef {object} FormgenBpmnConfig
 * @property {FormgenClient | null} [client] the formgen service's client (share one between modules); else
 *   one is made from `url` and `token`; neither: no service, everything runs in the browser
 * @property {string} [url] a formgen service's base URL, for its model Workers (default: none)
 * @property {string | (() => string)} [token] a Bearer token
 * @property {'linked' | 'embedded'} [binding] how a proposal binds its step: a linked form
 *   (zeebe:formDefinition formId, default; the form is offered as a .form download) or embedded in the
 *   process (zeebe:userTaskForm; user tasks only)
 * @property {(formId: string) => FormSchema | undefined} [getForm] the schema of a linked form the host holds,
 *   to check it against the step's contract
 * @property {(target: Target) => { forms?: FormSchema[], decisions?: string[] }} [project] the project's
 *   other forms and decisions the host holds, for a target
 * @property {(target: Target) => void} [onGenerate] the host generates instead (e.g. in its form editor): the
 *   properties panel's "Generate form" calls it with the step
 * @property {boolean} [probe] ask the capability at start (default true)
 * @property {import('@formgen/core/editors').CoreSource} [core] where formgen's core (`formgen_core.wasm`)
 *   is: its URL, bytes or compiled module (default: beside the core package's own source, which a bundle must
 *   override)
 */

/**
 * The service's state: `offline` when none is configured; "Generate form" goes through the service only
 * when it is `available` (its probe found Workers), else the builtin drafts in the browser.
 * @typedef {{ state: 'pending' | 'offline' | 'available' | 'unavailable' | 'unauthorized' | 'error', value?: Capability,
 *   error?: FormgenError }} CapabilityState
 */

/**
 * The selected step's picture. `findings` is absent when no form was checked or the service made no
 * contract check; `checkError` when the check itself failed (a form the gate refuses, say).
 * @typedef {{ state: 'idle' | 'loading' | 'ready' | 'error', target: Target | null, outline?: Outline,
 *   error?: FormgenError, checked?: string, findings?: Finding[], checkError?: FormgenError }} Picture
 */

/**
 * @typedef {{ key: string | null, started: number, progress: { attempt: number, tokens: number, seconds: number,
 *   components: number } | null, drafted: number, controller: AbortController }} Generation
 */

/**
 * @typedef {{ key: string | null, proposal?: Proposal, binding?: 'linked' | 'embedded', error?: FormgenError,
 *   cancelled?: boolean }} LastResult
 */

const DEBOUNCE_MS = 250; // a click on a shape, then another: only the last one is asked about

export default class Formgen {

  /**
   * @param {FormgenBpmnConfig | undefined} config
   * @param {any} eventBus
   * @param {any} bpmnjs
   */
  constructor(config, eventBus, bpmnjs) {
    const options = config || {};

    /** @type {FormgenClient | null} */
    this.client = options.client || (options.url ? createClient({ baseUrl: options.url, token: options.token }) : null);

    /** @type {'linked' | 'embedded'} */
    this.binding = options.binding === 'embedded' ? 'embedded' : 'linked';

    /** @type {CapabilityState} */
    this.capability = { state: 'pending' };

    /** @type {Picture} */
    this.picture = { state: 'idle', target: null };

    /** @type {Generation | null} */
    this.generation = null;

    /** @type {LastResult | null} */
    this.last = null;
    this._options = options;
    this._eventBus = eventBus;
    this._bpmnjs = bpmnjs;

    /** @type {Map<string, FormSchema>} */
    this._held = new Map();

    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._timer = undefined;

    this._asked = 0; // the newest question's number: an older answer is not drawn
    this._shown = '';

    eventBus.on([ 'selection.changed', 'commandStack.changed', 'import.done' ], () => this.refresh());
    ready(options.core).then(() => this.refresh()); // the picture waits for the core, not for a service
    if (options.probe !== false) this.probe();
    else this._setCapability({ state: this.client ? 'pending' : 'offline' });
  }

  /**
   * Asks the formgen service which Workers are in reach (again: after a sign-in, say).
   * @returns {Promise<CapabilityState>}
   */
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
    this.refresh();
    return this.capability;
  }

  /**
   * Points the service at another formgen service (a settings change), or at none (`null`), and probes it.
   * @param {FormgenClient | null} client
   */
  setClient(client) {
    this.client = client;
    return this.probe();
  }

  /** Whether "Generate form" goes through the service (its Workers), rather than the builtin in the browser. */
  get viaService() {
    return this.capability.state === 'available' && this.client !== null;
  }

  /** @param {CapabilityState} capability */
  _setCapability(capability) {
    this.capability = capability;
    this._eventBus.fire('formgen.capability.changed', { capability });
  }

  /** Whether the host generates (its `onGenerate`) rather than this service. */
  get hosted() {
    return Boolean(this._options.onGenerate);
  }

  /** The selected step (or the start form), or why there is none. */
  currentTarget() {
    return currentTarget(this._bpmnjs);
  }

  /**
   * The target an element stands for (null: the start form).
   * @param {any} element
   */
  targetOf(element) {
    return targetOf(this._bpmnjs, element);
  }

  /**
   * The form id a generation for the target will carry.
   * @param {Target} target
   */
  proposedFormId(target) {
    return proposedFormId(this._bpmnjs, target);
  }

  /**
   * Keeps a form of the project (bound, opened or generated): sent to formgen as one of the project's forms,
   * and checked when its step is selected.
   * @param {FormSchema} schema
   */
  hold(schema) {
    if (schema && schema.id) this._held.set(schema.id, schema);
    this.refresh();
  }

  /** Forgets the held forms (another process, another project). */
  clearHeld() {
    this._held.clear();
    this.refresh();
  }

  /**
   * The schema of the form the target binds, when it is known here: an embedded form's JSON, a linked form
   * the host or this service holds.
   * @param {Target} target
   * @returns {FormSchema | null}
   */
  boundSchema(target) {
    if (target.problem !== undefined || !target.element) return null;
    const bound = boundForm(target.element);
    if (!bound) return null;
    if (bound.type === 'embedded') {
      try {
        const schema = JSON.parse(bound.body);
        return schema && Array.isArray(schema.components) ? schema : null;
      } catch {
        return null;
      }
    }
    if (bound.type !== 'linked') return null;
    return (this._options.getForm && this._options.getForm(bound.formId)) || this._held.get(bound.formId) || null;
  }

  /**
   * What formgen reads for a target: the process as it is open now, the step, and the project's other forms
   * (the target's own form is never among them: it is the one being drafted) and decisions.
   * @param {Target} target
   * @returns {Promise<ProcessContext & { elementId: string, forms: FormSchema[], decisions: string[] }>}
   */
  async context(target) {
    if (target.problem !== undefined) throw new Error(target.problem);
    const { xml } = await this._bpmnjs.saveXML();
    const hosted = this._options.project ? this._options.project(target) : {};
    const forms = new Map(this._held);
    for (const form of hosted.forms || []) if (form && form.id) forms.set(form.id, form);
    for (const id of [ target.formId, this.proposedFormId(target) ]) if (id) forms.delete(id);
    const ownKind = target.element && boundForm(target.element);
    const embedded = ownKind && ownKind.type === 'embedded' ? this.boundSchema(target) : null;
    if (embedded && embedded.id) forms.delete(embedded.id);
    return { processXml: xml, elementId: target.elementId, forms: [ ...forms.values() ], decisions: hosted.decisions || [] };
  }

  /** Asks again about the selected step, after a short pause (the last of several changes wins). */
  refresh() {
    clearTimeout(this._timer);
    this._timer = setTimeout(() => {
      this._update().catch((err) => this._setPicture({ state: 'error', target: this.picture.target,
        error: { code: 'internal', status: 0, message: String(err && err.message || err) } }));
    }, DEBOUNCE_MS);
  }

  /** @param {Picture} picture */
  _setPicture(picture) {
    this.picture = picture;
    this._eventBus.fire('formgen.picture.changed', { picture });
  }

  async _update() {
    const target = this.currentTarget();
    if (target.problem !== undefined) {
      this._asked += 1;
      this._shown = '';
      this._setPicture({ state: 'idle', target });
      return;
    }
    const asked = ++this._asked;
    const loaded = await ready(this._options.core);
    if (!loaded.ok) {
      this._shown = '';
      this._setPicture({ state: 'error', target, error: loaded.error });
      return;
    }
    const context = await this.context(target);
    const schema = this.boundSchema(target);
    const question = JSON.stringify([ context, schema ]);
    if (asked !== this._asked) return; // a newer question is on its way
    if (question === this._shown) return;

    // The core answers at once, in the browser. The start form's picture is its start event's (the core
    // draws a picture only for a named element).
    const outline = outlineLocally({ ...context, elementId: context.elementId || (target.element && target.element.id) || '' });
    const check = schema ? this._check(schema, target, context) : null;
    if (!outline.ok) {
      this._shown = '';
      this._setPicture({ state: 'error', target, error: outline.error });
      return;
    }
    this._shown = question;

    /** @type {Picture} */
    const picture = { state: 'ready', target, outline: outline.value };
    if (schema && check) {
      picture.checked = schema.id || target.formId;
      if (check.ok) picture.findings = check.value.findings;
      else picture.checkError = check.error;
    }
    this._setPicture(picture);
  }

  /**
   * The gate and the contract check on the step's bound form, in the browser; the context's `elementId`
   * names the step (none: the start form, checked at its start event).
   * @param {FormSchema} schema
   * @param {Target} target
   * @param {ProcessContext} context
   */
  _check(schema, target, context) {
    const formId = schema.id || (target.problem === undefined ? target.formId : '');
    const elementId = context.elementId || (target.problem === undefined && target.element ? target.element.id : '');
    return checkLocally({ ...context, elementId, schema, formId });
  }

  /**
   * Generates the target's form (the host's `onGenerate` does it instead, when given), binds the step to
   * the proposal through the command stack, and keeps the form. Resolves with the result.
   * @param {{ target?: Target, description?: string, worker?: string }} [request]
   * @returns {Promise<LastResult | null>}
   */
  async generate(request = {}) {
    const target = request.target || this.currentTarget();
    if (this._options.onGenerate) {
      this._options.onGenerate(target);
      return null;
    }
    if (target.problem !== undefined) return this._finish({ key: null, error: { code: 'no_step', status: 0, message: target.problem } });
    if (!target.element) {
      return this._finish({ key: targetKey(target), error: { code: 'no_step', status: 0,
        message: 'This process has more than one start event (or none): select the one the form starts.' } });
    }
    if (this.generation) this.generation.controller.abort();
    const controller = new AbortController();
    const key = targetKey(target);

    /** @type {Generation} */
    const generation = { key, started: Date.now(), progress: null, drafted: 0, controller };
    this.generation = generation;
    this.last = null;
    this._fireGeneration();
    const context = await this.context(target);
    const asked = {
      ...context,
      description: request.description || '',
      formId: target.formId || this.proposedFormId(target),
    };
    let result = !this.viaService || !this.client ? await this._draftLocally(asked) : await this.client.generate({
      ...asked,
      worker: request.worker || '',
    }, {
      signal: controller.signal,
      onProgress: (progress) => { generation.progress = progress; this._fireGeneration(); },
      onDraft: (draft) => { generation.drafted = draft.components.length; this._fireGeneration(); },
    });

    // The service went away since its probe: the builtin in the browser drafts instead (the proposal says so).
    if (!result.ok && result.error.code === 'unreachable') result = await this._draftLocally(asked);
    if (this.generation !== generation) return this.last; // a newer generation took over
    this.generation = null;
    if (!result.ok) return this._finish({ key, cancelled: result.error.code === 'aborted', error: result.error });
    const proposal = result.value;
    const binding = this.binding === 'embedded' ? embedForm(this._bpmnjs, target.element, proposal.schema) : 'linked';
    if (binding === 'linked') bindForm(this._bpmnjs, target.element, proposal.schema.id || '');
    this._held.set(proposal.schema.id || '', proposal.schema);
    this._eventBus.fire('formgen.proposal', { target, proposal, binding });
    this.refresh();
    return this._finish({ key, proposal, binding });
  }

  /**
   * The builtin's draft, made by the core in the browser.
   * @param {ProcessContext & { description?: string, formId?: string }} request
   * @returns {Promise<import('@formgen/client').Result<Proposal>>}
   */
  async _draftLocally(request) {
    const loaded = await ready(this._options.core);
    return loaded.ok ? draftLocally(request) : loaded;
  }

  /** Cancels the generation in flight: formgen drops the model call with the request. */
  cancel() {
    if (this.generation) this.generation.controller.abort();
  }

  /** @param {LastResult} last */
  _finish(last) {
    this.last = last;
    this._fireGeneration();
    return last;
  }

  _fireGeneration() {
    this._eventBus.fire('formgen.generation.changed', { generation: this.generation, last: this.last });
  }
}

Formgen.$inject = [ 'config.formgen', 'eventBus', 'bpmnjs' ];
