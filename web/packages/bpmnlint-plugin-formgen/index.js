// bpmnlint-plugin-formgen: formgen's findings on a BPMN diagram as bpmnlint rules, computed by formgen's core
// (@formgen/core, WebAssembly) exactly as `formgen check` computes them. bpmnlint's plugin layout: `rules`
// maps each rule to its module (a path, as bpmnlint's resolver and packers require), `configs` holds the
// configs to extend (`plugin:formgen/recommended`).
const { ready, setProject } = require('./lib/findings');

/** The rules, each to the category formgen gives its findings. */
const recommended = {
  rules: {
    'formgen/unwritten-read': 'warn',
    'formgen/unquoted-literal': 'warn',
    'formgen/misspelled-variable': 'warn',
    'formgen/decision-type-mismatch': 'warn',
    'formgen/form-not-found': 'error',
    'formgen/unreadable-form': 'error',
    'formgen/embedded-form': 'error',
    'formgen/embedded-form-warning': 'warn',
  },
};

/** @type {Record<string, string>} */
const rules = {};
for (const name of Object.keys(recommended.rules)) {
  const rule = name.slice('formgen/'.length);
  rules[rule] = `./rules/${rule}`;
}

module.exports = {
  configs: { recommended },
  rules,
  ready,
  setProject,
};
