// The findings of one diagram, computed once per lint run and shared by every formgen rule: the rules get
// moddle elements, the core reads XML, so the definitions are written out (synchronously: bpmnlint's rules
// are) and the core's `lint` answers for all of them at once.
const core = require('@formgen/core');
const { Writer } = require('moddle-xml');

const host = require('./node');

/**
 * @typedef {{ name: string, text: string }} ProjectFile
 * @typedef {import('@formgen/core').Linted['findings'][number]} Finding
 */

/** @type {ProjectFile[] | null} the project a host set; used by rules configured without one */
let hostProject = null;

/**
 * Per definitions object, what this run computed: its XML and the findings per project. An editor keeps one
 * definitions object and changes it in place, so an entry must not outlive the run: it is dropped in a
 * microtask, after bpmnlint has applied every rule (it applies them in one synchronous loop).
 * @type {WeakMap<object, { xml: string | null, findings: Map<unknown, Finding[]> }>}
 */
const runs = new WeakMap();

/**
 * Loads formgen's core: in Node at once (the wasm beside @formgen/core), in a browser from `source` (the
 * wasm's URL, a Response, its bytes or a compiled module; see @formgen/core's `init`). The rules report
 * nothing in a browser until it resolves; re-lint then.
 * @param {Parameters<typeof core.init>[0]} [source]
 * @returns {Promise<void>}
 */
async function ready(source) {
  if (core.isReady() || host.loadCore(core)) return;
  await core.init(source);
}

/**
 * The project files the rules read when their config names no `project`: `[{ name, text }]` as the editor
 * holds them (`.form` and `.dmn`), or null for none.
 * @param {ProjectFile[] | null} files
 */
function setProject(files) {
  hostProject = files ? files.map(({ name, text }) => ({ name, text })) : null;
}

/**
 * What the core finds in these definitions, with the project a rule's `project` option names (a folder in
 * Node, or the files), else the host's. Empty while the core is not loaded (a browser before `ready()`).
 * @param {any} definitions
 * @param {string | ProjectFile[] | undefined} option
 * @returns {Finding[]}
 */
function findingsFor(definitions, option) {
  if (!core.isReady() && !host.loadCore(core)) return [];
  let run = runs.get(definitions);
  if (!run) {
    run = { xml: write(definitions), findings: new Map() };
    runs.set(definitions, run);
    queueMicrotask(() => runs.delete(definitions));
  }
  const key = option === undefined ? hostProject : option;
  let found = run.findings.get(key);
  if (!found) {
    const project = typeof key === 'string' ? host.readProject(key) : key;
    found = run.xml === null ? [] : lint(run.xml, project);
    run.findings.set(key, found);
  }
  return found;
}

/** @param {any} definitions */
function write(definitions) {
  try {
    return new Writer({}).toXML(definitions);
  } catch (err) {

    // moddle could read it but not write it back (an unusual prefix): the diagram is bpmnlint's to report
    console.warn(`formgen: the diagram could not be written for formgen's core (${message(err)}); its rules report nothing`);
    return null;
  }
}

/**
 * @param {string} xml
 * @param {ProjectFile[] | null} project
 */
function lint(xml, project) {
  try {
    return core.lint({ processXml: xml, ...(project ? { project } : {}) }).findings;
  } catch (err) {
    if (!(err instanceof core.FormgenCoreError)) throw err;
    console.warn(`formgen: ${err.message} (${err.code}); its rules report nothing`);
    return [];
  }
}

/** @param {unknown} err */
const message = (err) => (err instanceof Error ? err.message : String(err));

module.exports = { findingsFor, ready, setProject };
