// The core as formgen's editor modules use it: loaded once per page, asked with the context the modules
// already send to formgen's HTTP API (`{processXml, elementId, forms, decisions}`), answering in the HTTP
// API's shapes and as its client does (a Result, never a throw). So a data picture, a check or a builtin
// draft is drawn by the same code whether it came from the browser or from a service.
import * as core from '@formgen/core';

/** @typedef {import('@formgen/core').Finding} Finding */

/**
 * What the editors send about a step: the process as it is open, the step ('' or absent: the start form),
 * the project's other forms (schemas) and decisions (DMN XML).
 * @typedef {{ processXml?: string, processId?: string, elementId?: string, forms?: Array<Record<string, any>>,
 *   decisions?: string[] }} Context
 */

/** @typedef {{ code: string, message: string, status: number }} CoreError */

/**
 * @template T
 * @typedef {{ ok: true, value: T } | { ok: false, error: CoreError }} Result
 */

/**
 * Where the core's `.wasm` comes from: its URL, a Response, its bytes or a compiled module (see `init`).
 * @typedef {string | URL | Response | BufferSource | WebAssembly.Module} CoreSource
 */

/** @type {Promise<void> | null} */
let loading = null;

/**
 * Loads the core once for the page, whichever module asks first (the others wait for the same load).
 * A failed load is not kept: the next call tries again.
 * @param {CoreSource} [source]
 * @returns {Promise<Result<true>>}
 */
export async function ready(source) {
  if (core.isReady()) return { ok: true, value: true };
  loading ??= core.init(source).catch((err) => {
    loading = null;
    throw err;
  });
  try {
    await loading;
    return { ok: true, value: true };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return fail((/** @type {any} */ (err)).code || 'load_failed', `formgen's core could not be loaded: ${message}`);
  }
}

/** Whether the core answers now. */
export const isReady = () => core.isReady();

/**
 * The project as the core reads it: each form and decision as a file of the project.
 * @param {Context} context
 */
function project(context) {
  const forms = (context.forms || []).map((form, i) => ({
    name: `forms/${safeName(form && form.id, `form-${i + 1}`)}.form`, text: JSON.stringify(form),
  }));
  const decisions = (context.decisions || []).map((text, i) => ({ name: `decisions/decision-${i + 1}.dmn`, text }));
  return [ ...forms, ...decisions ];
}

/**
 * @param {unknown} id
 * @param {string} fallback
 */
const safeName = (id, fallback) => (typeof id === 'string' && /^[\w.-]+$/.test(id) ? id : fallback);

/**
 * The step's part of a request (only what is given: an empty step is the start form).
 * @param {Context} context
 */
function step(context) {
  return {
    processXml: context.processXml,
    ...(context.processId ? { processId: context.processId } : {}),
    ...(context.elementId ? { elementId: context.elementId } : {}),
    project: project(context),
  };
}

/**
 * The outline as `POST /api/formgen/outline` answers it: `{process, text, processSource, step?, findings}`.
 * The process is the one holding the step (else the first); `text` (what a model is shown) is the
 * service's alone and empty here.
 * @param {Context} context
 * @returns {Result<{ process: Record<string, any>, text: string, processSource: string, step?: any, findings: Finding[] }>}
 */
export function outline(context) {
  if (!context.processXml) return fail('no_process', 'There is no process to outline.');
  return attempt(() => {
    const answer = core.outline(step(context));
    const processes = /** @type {Array<Record<string, any>>} */ (answer.processes);
    const process = processes.find((p) => (p.elements || []).some((/** @type {any} */ e) => e.id === context.elementId))
      || processes.find((p) => p.id === context.processId) || processes[0] || {};
    return {
      process, text: '', processSource: 'request',
      ...(answer.step ? { step: answer.step } : {}),
      findings: answer.findings || [],
    };
  });
}

/**
 * Checks a form as `POST /api/formgen/validate` answers: `{schema, warnings, findings}`. With a process
 * and a step, the contract check of `formgen check` (the gate's findings and the step's contract);
 * else the gate alone, or with a process the start form's contract.
 * @param {Context & { schema: Record<string, any>, formId?: string }} request
 * @returns {Result<{ schema: Record<string, any>, warnings: string[], findings: Finding[] }>}
 */
export function check(request) {
  const formId = request.formId || undefined;
  return attempt(() => {
    if (request.processXml && request.elementId) {
      const answer = core.check({ ...step(request), form: request.schema, formId });
      return { schema: answer.schema, warnings: [], findings: answer.findings };
    }
    const base = request.processXml ? step(request) : {};
    return core.validate({ ...base, form: request.schema, formId });
  });
}

/**
 * The builtin's draft of the step's form, as a proposal of `POST /api/formgen/generate` with the builtin
 * Worker reads (`worker` "builtin", model "outline"); `schema` refines the form as it stands.
 * @param {Context & { description?: string, formId?: string, schema?: Record<string, any> }} request
 * @returns {Result<import('@formgen/client').Proposal & { local: true }>}
 */
export function draft(request) {
  if (!request.processXml) {
    return fail('no_process', 'The builtin drafts a form from its process, and this form has none: open the '
      + 'process it belongs to, or connect a formgen service with a model Worker.');
  }
  return attempt(() => {
    const drafted = core.draft({
      ...step(request), description: request.description || '', formId: request.formId || undefined,
      ...(request.schema ? { form: request.schema } : {}),
    });
    return {
      schema: /** @type {any} */ (drafted.schema), worker: 'builtin', model: 'outline', processId: request.processId || '',
      elementId: request.elementId || '', processSource: /** @type {const} */ ('request'), warnings: drafted.warnings,
      findings: /** @type {any} */ (drafted.findings), usage: { inputTokens: 0, outputTokens: 0 }, attempts: 1,
      local: /** @type {const} */ (true),
    };
  });
}

/**
 * @template T
 * @param {() => T} fn
 * @returns {Result<T>}
 */
function attempt(fn) {
  if (!core.isReady()) return fail('not_ready', 'formgen\'s core is still loading.');
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    return failure(err, 'internal');
  }
}

/**
 * @param {unknown} err
 * @param {string} code
 * @returns {{ ok: false, error: CoreError }}
 */
function failure(err, code) {
  const e = /** @type {{ code?: string, message?: string }} */ (err || {});
  return fail(e.code || code, e.message || String(err));
}

/**
 * @param {string} code
 * @param {string} message
 * @returns {{ ok: false, error: CoreError }}
 */
const fail = (code, message) => ({ ok: false, error: { code, message, status: 0 } });
