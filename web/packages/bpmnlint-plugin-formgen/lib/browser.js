// The browser's side of the rules: a browser compiles a wasm this size only asynchronously and reads no
// folders, so the host awaits `ready()` and hands the project over with `setProject()`; until the core is
// loaded the rules report nothing.

/** @param {typeof import('@formgen/core')} core */
function loadCore(core) {
  return false;
}

let warned = false;

/** @param {string} dir */
function readProject(dir) {
  if (!warned) console.warn(`formgen: a browser reads no project folder ("${dir}"); call setProject() with the files`);
  warned = true;
  return null;
}

module.exports = { loadCore, readProject };
