// The client for formgen's HTTP API: the capability probe, generate (plain or as an event stream), refine,
// validate and outline. No UI. Every call takes an AbortSignal and resolves to a Result: the value, or the
// service's error as a value ({code, message, status, problems?, retryAfter?}); no call rejects.
import { readEvents } from './sse.js';

/** @typedef {import('./types.js').FormSchema} FormSchema */
/** @typedef {import('./types.js').Capability} Capability */
/** @typedef {import('./types.js').Finding} Finding */
/** @typedef {import('./types.js').ProcessContext} ProcessContext */
/** @typedef {import('./types.js').GenerateRequest} GenerateRequest */
/** @typedef {import('./types.js').Proposal} Proposal */
/** @typedef {import('./types.js').ValidateRequest} ValidateRequest */
/** @typedef {import('./types.js').Validation} Validation */
/** @typedef {import('./types.js').Outline} Outline */
/** @typedef {import('./types.js').StepPicture} StepPicture */
/** @typedef {import('./types.js').FormgenError} FormgenError */
/** @typedef {import('./types.js').StreamEvent} StreamEvent */
/** @typedef {import('./types.js').CallOptions} CallOptions */
/** @typedef {import('./types.js').GenerateOptions} GenerateOptions */
/** @typedef {import('./types.js').ClientOptions} ClientOptions */
/**
 * @template T
 * @typedef {import('./types.js').Result<T>} Result
 */

const API_PATH = 'api/formgen/';

// The fields each endpoint accepts: formgen refuses unknown fields (400 bad_request), so a caller's object is
// copied field by field, and empty strings are left out (an empty elementId is the start form anyway).
const CONTEXT_FIELDS = [ 'processId', 'processXml', 'elementId', 'forms', 'decisions' ];
const GENERATE_FIELDS = [ 'description', 'worker', 'model', 'formId', 'schema', ...CONTEXT_FIELDS ];
const VALIDATE_FIELDS = [ 'schema', 'text', 'formId', ...CONTEXT_FIELDS ];
const OUTLINE_FIELDS = CONTEXT_FIELDS;

export class FormgenClient {

  /** @type {string | (() => string)} */
  #token;

  /** @type {typeof fetch} */
  #fetch;

  /** @param {ClientOptions} [options] */
  constructor(options = {}) {

    /** @type {string} */
    this.apiUrl = apiUrlOf(options.baseUrl);
    this.#token = options.token ?? '';
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * Points the client at another formgen (e.g. after the URL setting changed).
   * @param {string} baseUrl
   */
  setBaseUrl(baseUrl) {
    this.apiUrl = apiUrlOf(baseUrl);
  }

  /**
   * Replaces the Bearer token (e.g. the one the author typed after a 401); '' sends none.
   * @param {string | (() => string)} token
   */
  setToken(token) {
    this.#token = token;
  }

  /**
   * `GET /api/formgen/capability`: which Workers this principal may use. Ask it before drawing a button: with
   * `available` false there is no Worker, and a button could only fail.
   * @param {CallOptions} [options]
   * @returns {Promise<Result<Capability>>}
   */
  async capability(options = {}) {
    return this._json('capability', undefined, options);
  }

  /**
   * `POST /api/formgen/generate`: a proposal for the step's form. With `stream` (the default) the service
   * sends progress, drafts, warnings and a repair round as they happen (`onEvent` and the typed callbacks);
   * the result is the proposal, or the stream's error event as an error value.
   * @param {GenerateRequest} request
   * @param {GenerateOptions} [options]
   * @returns {Promise<Result<Proposal>>}
   */
  async generate(request, options = {}) {
    const body = pick(request, GENERATE_FIELDS);
    if (options.stream === false) return this._json('generate', body, options);
    return this._stream(body, options);
  }

  /**
   * Refinement: the same call with the form as it stands; the model answers with the whole revised form.
   * @param {GenerateRequest & { schema: FormSchema }} request
   * @param {GenerateOptions} [options]
   * @returns {Promise<Result<Proposal>>}
   */
  async refine(request, options = {}) {
    if (!request || !request.schema) {
      return failure({ code: 'form_required', status: 0, message: 'Refine needs the form as it stands (schema).' });
    }
    return this.generate(request, options);
  }

  /**
   * `POST /api/formgen/validate`: the schema gate (and the contract check, with a process) on a hand-written
   * form. Every rule of the gate the form breaks is an error finding (`secret_field`, `invalid_validation`, ...)
   * beside the contract's; only text that holds no form is the error `schema_refused` (422), whose sentence
   * gives the line and column of a JSON mistake.
   * @param {ValidateRequest} request
   * @param {CallOptions} [options]
   * @returns {Promise<Result<Validation>>}
   */
  async validate(request, options = {}) {
    return this._json('validate', pick(request, VALIDATE_FIELDS), options);
  }

  /**
   * `POST /api/formgen/outline`: what a model would be shown about the process, and the step's data picture
   * (`step`: known before, to supply, decided on).
   * @param {ProcessContext} request
   * @param {CallOptions} [options]
   * @returns {Promise<Result<Outline>>}
   */
  async outline(request, options = {}) {
    return this._json('outline', pick(request, OUTLINE_FIELDS), options);
  }

  /**
   * @private
   * @param {string} path
   * @param {Record<string, unknown> | undefined} body
   * @param {string} accept
   * @param {AbortSignal | undefined} signal
   * @returns {Promise<{ ok: true, response: Response } | { ok: false, error: FormgenError }>}
   */
  async _send(path, body, accept, signal) {

    /** @type {Record<string, string>} */
    const headers = { Accept: accept };
    const token = typeof this.#token === 'function' ? this.#token() : this.#token;
    if (token) headers.Authorization = `Bearer ${token}`;

    /** @type {RequestInit} */
    const init = { method: body ? 'POST' : 'GET', headers, signal };
    if (body) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    try {
      return { ok: true, response: await this.#fetch(this.apiUrl + path, init) };
    } catch (err) {
      return { ok: false, error: transportError(err, signal) };
    }
  }

  /**
   * @private
   * @template T
   * @param {string} path
   * @param {Record<string, unknown> | undefined} body
   * @param {CallOptions} options
   * @returns {Promise<Result<T>>}
   */
  async _json(path, body, options) {
    const sent = await this._send(path, body, 'application/json', options.signal);
    if (!sent.ok) return sent;
    return readJson(sent.response, options.signal);
  }

  /**
   * @private
   * @param {Record<string, unknown>} body
   * @param {GenerateOptions} options
   * @returns {Promise<Result<Proposal>>}
   */
  async _stream(body, options) {
    const { signal } = options;
    const sent = await this._send('generate', body, 'text/event-stream, application/json', signal);
    if (!sent.ok) return sent;
    const { response } = sent;
    const type = response.headers.get('content-type') || '';
    if (!response.ok || !type.startsWith('text/event-stream') || !response.body) {
      return readJson(response, signal); // an error before the stream, or a service that answers in one piece
    }

    /** @type {Result<Proposal> | null} */
    let result = null;
    try {
      await readEvents(response.body, (name, text) => {
        if (!KNOWN_EVENTS.has(name)) return false; // an event a newer service sends: not ours to judge
        const event = /** @type {StreamEvent} */ ({ type: name, data: JSON.parse(text) });
        options.onEvent?.(event);
        if (event.type === 'progress') options.onProgress?.(event.data);
        else if (event.type === 'draft') options.onDraft?.(event.data);
        else if (event.type === 'warning') options.onWarning?.(event.data.warning);
        else if (event.type === 'repair') options.onRepair?.(event.data);
        else if (event.type === 'proposal') result = { ok: true, value: event.data };
        else if (event.type === 'error') result = failure(errorFrom(event.data, event.data.status));
        return result !== null;
      });
    } catch (err) {
      return failure(transportError(err, signal));
    }
    return result ?? failure({
      code: 'stream_ended', status: 0,
      message: 'formgen\'s answer ended before the proposal; try again.',
    });
  }
}

const KNOWN_EVENTS = new Set([ 'progress', 'draft', 'warning', 'repair', 'proposal', 'error' ]);

/**
 * A client for the formgen at `baseUrl` (default: the page's own origin).
 * @param {ClientOptions} [options]
 */
export function createClient(options) {
  return new FormgenClient(options);
}

/**
 * Findings about the form as a whole (no key: no field has it) and by key, for drawing them next to fields.
 * @param {Finding[] | undefined} findings
 * @returns {{ form: Finding[], byKey: Map<string, Finding[]> }}
 */
export function groupFindings(findings) {

  /** @type {Map<string, Finding[]>} */
  const byKey = new Map();

  /** @type {Finding[]} */
  const form = [];
  for (const finding of findings || []) {
    if (!finding.key) {
      form.push(finding);
      continue;
    }
    byKey.set(finding.key, [ ...(byKey.get(finding.key) || []), finding ]);
  }
  return { form, byKey };
}

// helpers //////////

/**
 * The API's URL under a base URL (relative to the page when relative; default: the page's origin).
 * @param {string | undefined} baseUrl
 */
function apiUrlOf(baseUrl) {
  const page = globalThis.location?.href;
  const base = baseUrl || (page ? new URL('/', page).href : '');
  if (!base) throw new TypeError('FormgenClient: no baseUrl, and no page to resolve the API against');
  return new URL(API_PATH, new URL(base, page).href.replace(/\/?$/, '/')).href;
}

/**
 * @param {Record<string, any> | undefined} source
 * @param {string[]} fields
 * @returns {Record<string, unknown>}
 */
function pick(source, fields) {

  /** @type {Record<string, unknown>} */
  const body = {};
  for (const field of fields) {
    const value = source ? source[field] : undefined;
    if (value === undefined || value === null || value === '') continue;
    body[field] = value;
  }
  return body;
}

/**
 * @template T
 * @param {Response} response
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<Result<T>>}
 */
async function readJson(response, signal) {
  let body;
  try {
    body = await response.json();
  } catch (err) {
    if (signal?.aborted) return failure(transportError(err, signal));
    return failure({
      code: 'bad_response', status: response.status,
      message: `formgen answered ${response.status} ${response.statusText} with something that is not JSON.`.replace(' .', '.'),
    });
  }
  if (response.ok) return { ok: true, value: body };
  const error = errorFrom(body, response.status);
  const retryAfter = Number(response.headers.get('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) error.retryAfter = retryAfter;
  return failure(error);
}

/**
 * @param {any} body
 * @param {number} status
 * @returns {FormgenError}
 */
function errorFrom(body, status) {

  /** @type {FormgenError} */
  const error = {
    code: (body && typeof body.code === 'string' && body.code) || `http_${status}`,
    message: (body && typeof body.error === 'string' && body.error) || `formgen answered ${status}.`,
    status,
  };
  if (body && Array.isArray(body.problems)) error.problems = body.problems;
  return error;
}

/**
 * @param {unknown} err
 * @param {AbortSignal | undefined} signal
 * @returns {FormgenError}
 */
function transportError(err, signal) {
  if (signal?.aborted || (err instanceof Error && err.name === 'AbortError')) {
    return { code: 'aborted', status: 0, message: 'Cancelled.' };
  }
  const detail = err instanceof Error ? err.message : String(err);
  return { code: 'unreachable', status: 0, message: `formgen could not be reached (${detail}).` };
}

/**
 * @param {FormgenError} error
 * @returns {{ ok: false, error: FormgenError }}
 */
function failure(error) {
  return { ok: false, error };
}
