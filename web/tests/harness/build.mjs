// Builds the harness pages of the browser test into tests/.build/harness/: a plain bpmn-js modeller with
// @formgen/bpmn-js, a plain form-js editor with @formgen/form-js, and a stand-in for the Camunda Modeler's
// client that loads the plugin's bundle. The test serves them on formgen's origin (playwright's routing).
import { build } from 'esbuild';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const HARNESS = join(here, '..', '.build', 'harness');

const LAYOUT = `<style>
  html, body { height: 100%; margin: 0; font: 14px/1.4 system-ui, sans-serif; }
  body { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); grid-template-rows: minmax(0, 100%); overflow: hidden; }
  #canvas, #form-editor { position: relative; height: 100%; min-width: 0; }
  #form-editor { grid-column: 1 / 3; }
  #form-editor .fjs-container { height: 100%; }
  #properties { height: 100%; overflow: auto; border-left: 1px solid #d9dce3; }
</style>`;

const page = (name, body, scripts) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<link rel="stylesheet" href="${name}.css">${LAYOUT}</head>
<body>${body}${scripts}</body></html>
`;

export async function buildHarness() {
  await rm(HARNESS, { recursive: true, force: true });
  await mkdir(HARNESS, { recursive: true });
  await build({
    absWorkingDir: here,
    entryPoints: [ 'bpmn.js', 'form.js', 'modeler.js' ],
    outdir: HARNESS,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: false,
    loader: { '.bpmn': 'text', '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.eot': 'file', '.svg': 'file', '.png': 'file' },
    assetNames: '[name]-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });

  // formgen's core beside the pages, as a host serves it (the plugin carries its own inside its script)
  await copyFile(join(here, '..', '..', 'packages', 'core', 'dist', 'formgen_core.wasm'), join(HARNESS, 'formgen_core.wasm'));
  await writeFile(join(HARNESS, 'bpmn.html'), page('bpmn', '<div id="canvas"></div><div id="properties"></div>',
    '<script type="module" src="bpmn.js"></script>'));
  await writeFile(join(HARNESS, 'form.html'), page('form', '<div id="form-editor"></div>',
    '<script type="module" src="form.js"></script>'));

  // As the Modeler does: its own client first, then each plugin's style and classic script, then the app.
  await writeFile(join(HARNESS, 'modeler.html'), page('modeler',
    '<div id="canvas"></div><div id="properties"></div><div id="plugin-root" hidden></div>',
    `<script type="module" src="modeler.js"></script>
<link rel="stylesheet" href="plugins/formgen/dist/style.css">
<script type="module">
  // module scripts run in order: the stand-in's globals exist before the plugin's classic script runs
  const script = document.createElement('script');
  script.src = 'plugins/formgen/dist/client.js';
  script.onload = () => window.startModeler(window.__settings || {});
  document.body.append(script);
</script>`));

  // formgen serves a web_dir only when it has an index.html
  await writeFile(join(HARNESS, 'index.html'), page('index', '<ul><li><a href="bpmn.html">bpmn-js</a></li>'
    + '<li><a href="form.html">form-js</a></li><li><a href="modeler.html">Camunda Modeler stand-in</a></li></ul>', ''));
  return HARNESS;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildHarness();
