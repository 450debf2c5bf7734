// Node's side of the rules: bpmnlint calls a rule synchronously, so the core is compiled from the wasm's bytes
// at once, and a project folder is read from disk. A bundle for the browser gets lib/browser.js instead
// (package.json's `browser` field), so no `fs` reaches it.
const { readFileSync, readdirSync } = require('node:fs');
const { join, resolve } = require('node:path');

/** Folders passed over, as `formgen check --project` passes them over (and every name starting with `.`). */
const IGNORED = new Set([ 'node_modules', 'target' ]);

/** @param {typeof import('@formgen/core')} core */
function loadCore(core) {
  core.initSync(readFileSync(require.resolve('@formgen/core/formgen_core.wasm')));
  return true;
}

/**
 * The `.form` and `.dmn` files under `dir` (relative to the working directory, where bpmnlint reads its
 * `.bpmnlintrc`), named by their `/`-separated path below it, sorted by name. Symbolic links are passed over.
 * @param {string} dir
 * @returns {{ name: string, text: string }[]}
 */
function readProject(dir) {
  const root = resolve(dir);

  /** @type {{ name: string, text: string }[]} */
  const files = [];

  /** @param {string} sub */
  const walk = (sub) => {
    for (const entry of readdirSync(join(root, sub), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const name = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !IGNORED.has(entry.name)) walk(name);
      else if (entry.isFile() && /\.(form|dmn)$/.test(entry.name)) {
        files.push({ name, text: readFileSync(join(root, name), 'utf8') });
      }
    }
  };
  walk('');
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

module.exports = { loadCore, readProject };
