// formgen's core in WebAssembly: the outline, the builtin draft, the contract check and the gate's
// validation, computed where the author works, with no server. Each call answers the JSON the formgen
// CLI prints for the same input (`outline --json`, `generate --worker builtin`, `check --format json`)
// or `POST /api/formgen/validate` answers.

const CALLS = { outline: 0, draft: 1, check: 2, validate: 3, lint: 4 };

let exports = null;

/** An error the core answered with: a stable `code` and the sentence for the author. */
export class FormgenCoreError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'FormgenCoreError';
    this.code = code;
  }
}

/** Whether the core is loaded. */
export function isReady() {
  return exports !== null;
}

/**
 * Loads the core from its bytes or a compiled module, at once. In a browser's main thread only small
 * modules compile synchronously; use `init` there.
 * @param {BufferSource | WebAssembly.Module} source
 */
export function initSync(source) {
  if (exports) return;
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  exports = new WebAssembly.Instance(module, {}).exports;
}

/**
 * Loads the core. `source`: the `.wasm`'s URL (default: `formgen_core.wasm` beside this package's
 * `dist/`), a `Response`, its bytes or a compiled module. Calling it again does nothing.
 * @param {string | URL | Response | BufferSource | WebAssembly.Module} [source]
 */
export async function init(source) {
  if (exports) return;
  source = source ?? new URL('../dist/formgen_core.wasm', import.meta.url);
  if (typeof source === 'string') source = new URL(source, globalThis.location?.href);
  if (source instanceof URL) {
    if (source.protocol === 'file:') {

      // Node: read through the built-in module by name, so no bundler meets an import of node:fs
      const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises');
      if (!fs) throw new FormgenCoreError('load_failed', 'reading the core from a file: URL needs Node.js 20.16 or later; pass its bytes to init()');
      source = await fs.readFile(source);
    } else {
      source = await fetch(source);
    }
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.ok) throw new FormgenCoreError('load_failed', `formgen's core could not be loaded (HTTP ${source.status})`);
    source = await source.arrayBuffer();
  }
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
  if (!exports) exports = (await WebAssembly.instantiate(module, {})).exports;
}

function call(name, request) {
  if (!exports) throw new FormgenCoreError('not_ready', 'formgen\'s core is not loaded yet: await init() first');
  const { processXml, ...rest } = request ?? {};
  const bytes = processXml instanceof Uint8Array ? processXml : null;
  const json = new TextEncoder().encode(JSON.stringify(bytes ? rest : { processXml, ...rest }));
  const req = put(json);
  const raw = bytes ? put(bytes) : null;
  try {
    const status = exports.formgen_call(CALLS[name], req.ptr, req.len, raw ? raw.ptr : 0, raw ? raw.len : 0);
    const answer = JSON.parse(new TextDecoder().decode(
      new Uint8Array(exports.memory.buffer, exports.formgen_answer_ptr(), exports.formgen_answer_len())
    ));
    if (status !== 0) throw new FormgenCoreError(answer.error.code, answer.error.message);
    return answer.ok;
  } finally {
    exports.formgen_free(req.ptr, req.len);
    if (raw) exports.formgen_free(raw.ptr, raw.len);
  }
}

function put(bytes) {
  const len = bytes.length;
  const ptr = exports.formgen_alloc(len);
  new Uint8Array(exports.memory.buffer, ptr, len).set(bytes);
  return { ptr, len };
}

/** The outline of a process (one line of `formgen outline --json`); with `elementId`, its data picture. */
export function outline(request) {
  return call('outline', request);
}

/** The builtin draft of a step: `{ schema, warnings, findings }` (`formgen generate --worker builtin`). */
export function draft(request) {
  return call('draft', request);
}

/** The gate and the contract check of a form at its step (`formgen check --format json`). */
export function check(request) {
  return call('check', request);
}

/** The gate on a form with its findings: `{ schema, warnings, findings }` (`POST /validate`). */
export function validate(request) {
  return call('validate', request);
}

/**
 * What is wrong with every process of the BPMN on its elements: names read that nothing writes,
 * literals, decisions that contradict their types, bound forms the project lacks, and the findings of
 * forms embedded in the BPMN: `{ findings }`, each with its `processId` and `elementId`.
 */
export function lint(request) {
  return call('lint', request);
}
