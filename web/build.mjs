// Builds the page into dist/: one JS bundle, one CSS bundle (bpmn-js, form-js and ours), the bpmn-font
// files beside them, and index.html. Everything the page loads comes from dist/, so it works offline and
// formgen can serve it from its own origin (no CDN, no CORS).
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');

// formgen's core in WebAssembly first (packages/core/dist): the page and the plugin load it.
await import('./packages/core/build.mjs');

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: { app: 'src/main.js' },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: !process.env.DEV, // DEV=1 npm run build: readable stack traces while working on the page
  sourcemap: false,
  legalComments: 'linked',
  outdir: join(dist, 'assets'),

  // The CSS imported from main.js becomes assets/app.css; fonts and images it points at are copied
  // next to it under hashed names (the bpmn-font's url()s carry ?query suffixes, which esbuild strips).
  loader: {
    '.bpmn': 'text',
    '.woff': 'file',
    '.woff2': 'file',
    '.ttf': 'file',
    '.eot': 'file',
    '.svg': 'file',
    '.png': 'file',
  },
  assetNames: '[name]-[hash]',

  // @formgen/core reads its .wasm from disk under Node (a dynamic import never taken in a browser).

  // form-js and preact look at NODE_ENV; without this they would ship their development checks.
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

await copyFile(join(root, 'src', 'index.html'), join(dist, 'index.html'));

// formgen's core beside the bundle: the page loads it with init('assets/formgen_core.wasm') (fetched and
// compiled while the page starts, not inlined: the bundle stays small and the browser caches the .wasm).
await copyFile(join(root, 'packages', 'core', 'dist', 'formgen_core.wasm'), join(dist, 'assets', 'formgen_core.wasm'));

// The Camunda Modeler plugin's bundle (packages/camunda-modeler-plugin/dist), from the same packages.
await import('./packages/camunda-modeler-plugin/build.mjs');

// A short size report, so a bundle that suddenly doubles is noticed.
let total = 0;
for (const dir of [ dist, join(dist, 'assets') ]) {
  for (const name of await readdir(dir)) {
    const s = await stat(join(dir, name));
    if (s.isFile()) {
      total += s.size;
      console.log(`${join(dir, name).slice(root.length + 1).padEnd(36)} ${(s.size / 1024).toFixed(1).padStart(8)} KiB`);
    }
  }
}
console.log(`${'total'.padEnd(36)} ${(total / 1024).toFixed(1).padStart(8)} KiB`);
