// The shapes formgen's API answers with and accepts, as JSDoc types: `tsc --checkJs` checks the client
// against them and emits the declarations (`types/`) that editors written in TypeScript import.

/**
 * A form-js schema: the JSON of a Camunda Form. formgen only reads the fields named here; a form carries
 * whatever else form-js writes.
 * @typedef {{ id?: string, type?: string, components: Array<Record<string, any>>, [key: string]: any }} FormSchema
 */

/**
 * A Worker as the browser sees it: never its endpoint or key.
 * @typedef {{ name: string, model: string, provider: string }} Worker
 */

/**
 * The ceilings an editor needs (`GET /api/formgen/capability`'s `limits`).
 * @typedef {{ requestBodyBytes: number, descriptionChars: number, bpmnBytes: number, schemaBytes: number,
 *   modelTimeoutS: number, [key: string]: number }} Limits
 */

/**
 * `GET /api/formgen/capability`: only the Workers this principal may name.
 * @typedef {{ available: boolean, workers: Worker[], limits: Limits }} Capability
 */

/**
 * What the contract check says about one key of a form (or, with `key` null, about the form as a whole).
 * @typedef {{ code: string, severity: 'error' | 'warning' | 'info', key?: string | null, label?: string | null,
 *   elementId?: string | null, expression?: string | null, message: string }} Finding
 */

/**
 * The process and its project: what formgen reads besides the brief. `processXml` (what the author has open)
 * wins over `processId` (the store's draft, else its deployed version).
 * @typedef {object} ProcessContext
 * @property {string} [processXml] the BPMN the author has open right now
 * @property {string} [processId] a process of formgen's store
 * @property {string} [elementId] the step the form is for; empty or absent: the start form
 * @property {FormSchema[]} [forms] the project's other forms (linked by their ids)
 * @property {string[]} [decisions] the project's decisions (DMN XML)
 */

/**
 * `POST /api/formgen/generate` (and refine, with `schema`).
 * @typedef {ProcessContext & {
 *   description?: string, worker?: string, model?: string, formId?: string, schema?: FormSchema
 * }} GenerateRequest
 */

/**
 * The proposal: never saved anywhere; `schema` carries the `formId` asked for.
 * @typedef {object} Proposal
 * @property {FormSchema} schema
 * @property {string} worker
 * @property {string} model
 * @property {string} processId
 * @property {string} elementId
 * @property {'draft' | 'deployment' | 'request' | ''} processSource
 * @property {string[]} warnings
 * @property {Finding[]} findings the contract check of the proposal against its step (empty without a process)
 * @property {{ inputTokens: number, outputTokens: number }} usage
 * @property {number} attempts 1, or 2 after a repair round
 */

/**
 * `POST /api/formgen/validate`: a hand-written form (`schema`) or a raw answer (`text`). With a process, the
 * contract check runs for `elementId`'s step, else for the step bound to `formId` (else the schema's `id`).
 * @typedef {ProcessContext & { schema?: FormSchema, text?: string, formId?: string }} ValidateRequest
 */

/**
 * The gate's verdict on an accepted form.
 * @typedef {{ schema: FormSchema, warnings: string[], findings: Finding[] }} Validation
 */

/**
 * One variable known before the step.
 * @typedef {{ name: string, from: string, used?: boolean, entered?: boolean, [key: string]: any }} KnownVariable
 */

/**
 * The step's data picture: what is known before it, what its form must supply, what is decided on after it,
 * and which of the project's forms and decisions were read.
 * @typedef {{ elementId: string, knownBefore: KnownVariable[], toSupply: Array<{ name: string, why: string }>,
 *   decidedOn: Array<{ name: string, conditions: string[] }>, forms: string[], decisions: string[] }} StepPicture
 */

/**
 * `POST /api/formgen/outline`: what a model would be shown.
 * What formgen reads in the process: its outline, the text a model is shown, the step's data picture, and
 * `findings` about the process itself (names it reads that nothing writes; warnings).
 * @typedef {{ process: Record<string, any>, text: string, processSource: string, step?: StepPicture,
 *   findings?: Finding[] }} Outline
 */

/**
 * An error as a value: the service's `code` and sentence (`message`, written for the author) and the HTTP
 * status; `problems` for a refused form (422), `retryAfter` (seconds) for 429 and 503. Failures that never
 * reached the service have status 0: `aborted` (the caller's signal), `unreachable` (the network), and
 * `bad_response` / `stream_ended` (an answer that is not formgen's).
 * @typedef {object} FormgenError
 * @property {string} code
 * @property {string} message
 * @property {number} status
 * @property {string[]} [problems]
 * @property {number} [retryAfter]
 */

/**
 * Every call resolves to one of these; none rejects.
 * @template T
 * @typedef {{ ok: true, value: T } | { ok: false, error: FormgenError }} Result
 */

/**
 * An event of the generation stream, in the order the service sends them.
 * @typedef {{ type: 'progress', data: { attempt: number, tokens: number, seconds: number, components: number } }
 *   | { type: 'draft', data: FormSchema }
 *   | { type: 'warning', data: { warning: string } }
 *   | { type: 'repair', data: { attempt: number, problems: string[] } }
 *   | { type: 'proposal', data: Proposal }
 *   | { type: 'error', data: { error: string, code: string, status: number, problems?: string[] } }} StreamEvent
 */

/**
 * @typedef {object} CallOptions
 * @property {AbortSignal} [signal] aborts the call; the result is then the error `aborted`
 */

/**
 * @typedef {CallOptions & {
 *   stream?: boolean,
 *   onEvent?: (event: StreamEvent) => void,
 *   onProgress?: (progress: { attempt: number, tokens: number, seconds: number, components: number }) => void,
 *   onDraft?: (draft: FormSchema) => void,
 *   onWarning?: (warning: string) => void,
 *   onRepair?: (repair: { attempt: number, problems: string[] }) => void,
 * }} GenerateOptions
 * `stream` (default true) asks for the event stream; the callbacks see its events as they arrive.
 */

/**
 * @typedef {object} ClientOptions
 * @property {string} [baseUrl] where formgen answers, e.g. "https://formgen.example.com/"; relative to the
 *   page when relative; default: the page's own origin
 * @property {string | (() => string)} [token] a Bearer token, sent only as the Authorization header; a function
 *   is asked on every call (a token typed in after the first 401)
 * @property {typeof fetch} [fetch] the fetch to use (tests, or a host's own)
 */

export {};
