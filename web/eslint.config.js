// ESLint with the bpmn.io configuration (eslint-plugin-bpmn-io): browser code, node code (builds, tests),
// and the Camunda Modeler plugin's descriptor (CommonJS, as the Modeler requires it).
import bpmnIoPlugin from 'eslint-plugin-bpmn-io';
import globals from 'globals';

const BROWSER = [ 'src/**/*.js', 'packages/*/src/**/*.js', 'packages/camunda-modeler-plugin/client/**/*.js', 'tests/harness/*.js' ];
const NODE = [ '*.js', '*.mjs', 'tests/**/*.mjs', 'packages/*/build.mjs', 'packages/client/test/**/*.js' ];

const scoped = (configs, files) => configs.map((config) => ({ ...config, files }));

export default [
  { ignores: [ 'dist/', 'packages/*/dist/', 'packages/client/types/', 'tests/.build/', 'tests/artifacts/' ] },
  ...scoped(bpmnIoPlugin.configs.browser, BROWSER),
  ...scoped(bpmnIoPlugin.configs.node, NODE),
  ...scoped(bpmnIoPlugin.configs.node, [ 'packages/bpmnlint-plugin-formgen/**/*.js', 'packages/bpmnlint-plugin-formgen/test/**/*.mjs' ]),
  {

    // a bpmnlint plugin is CommonJS (bpmnlint's resolver requires it); it runs in Node and, bundled, in browsers
    files: [ 'packages/bpmnlint-plugin-formgen/**/*.js' ],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: [ 'packages/camunda-modeler-plugin/index.js' ],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {

    // the harness's page-side code runs in the browser, called from the tests' page.evaluate
    files: [ 'tests/modules.mjs', 'tests/browser.mjs', 'tests/offline.mjs', 'tests/lint.mjs' ],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
];
