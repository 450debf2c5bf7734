// The recommended config packed as bpmnlint's packers (bpmnlint-pack-config, bpmnlint-loader) pack a
// `.bpmnlintrc`: `{ config, resolver }`, for hosts that take a packed config (bpmn-js-bpmnlint's
// `linting.bpmnlint`, the Camunda Modeler's `lintRules.*` plugins) and bundle without a bpmnlint loader.
const { configs, rules } = require('./index');
const { formgenRule } = require('./lib/rule');

const config = { rules: { ...configs.recommended.rules } };

const resolver = {

  /**
   * @param {string} pkg
   * @param {string} ruleName
   */
  resolveRule(pkg, ruleName) {
    if (pkg !== 'bpmnlint-plugin-formgen' || !(ruleName in rules)) {
      throw new Error(`cannot resolve rule <${pkg}/${ruleName}>: not bundled`);
    }
    return formgenRule(ruleName);
  },

  /**
   * @param {string} pkg
   * @param {string} configName
   */
  resolveConfig(pkg, configName) {
    throw new Error(`cannot resolve config <${configName}> in <${pkg}>: not bundled`);
  },
};

module.exports = { config, resolver };
