// Bundles the client script into dist/client.js as the Modeler loads it: one classic script (IIFE), with
// bpmn-js-properties-panel, @bpmn-io/properties-panel's preact and React taken from the Modeler at run time
// (camunda-modeler-plugin-helpers/vendor/*) instead of bundled: the entries must render with the Modeler's
// own copies, or their hooks find no properties panel. formgen's core (WebAssembly) is bundled as bytes.
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const vendor = (path) => require.resolve(`camunda-modeler-plugin-helpers/vendor/${path}`);

const VENDORED = {
  'bpmn-js-properties-panel': vendor('bpmn-js-properties-panel.js'),
  '@bpmn-io/properties-panel': vendor('@bpmn-io/properties-panel/index.js'),
  '@bpmn-io/properties-panel/preact': vendor('@bpmn-io/properties-panel/preact/index.js'),
  '@bpmn-io/properties-panel/preact/hooks': vendor('@bpmn-io/properties-panel/preact/hooks.js'),
  '@bpmn-io/properties-panel/preact/compat': vendor('@bpmn-io/properties-panel/preact/compat.js'),
  '@bpmn-io/properties-panel/preact/jsx-runtime': vendor('@bpmn-io/properties-panel/preact/jsx-runtime.js'),
};

/** @type {import('esbuild').Plugin} */
const modelerVendor = {
  name: 'modeler-vendor',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(VENDORED).map((k) => k.replace(/[/.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: VENDORED[args.path] }));
  },
};

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: [ 'client/index.js' ],
  outfile: join(dist, 'client.js'),
  bundle: true,
  format: 'iife',
  target: 'es2022',
  minify: !process.env.DEV,
  legalComments: 'linked',
  plugins: [ modelerVendor ],

  // formgen's core travels inside the script as bytes (client/core.js): nothing to fetch beside it.
  loader: { '.wasm': 'binary' },

  // the core's default location (import.meta.url) is never used here: the plugin hands it the bytes
  logOverride: { 'empty-import-meta': 'silent' },
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
await copyFile(require.resolve('@formgen/bpmn-js/style.css'), join(dist, 'style.css'));
console.log('camunda-modeler-plugin/dist: client.js, style.css');
