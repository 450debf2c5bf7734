// One bpmnlint rule per kind of finding. The process's own codes and a missing or unreadable form each have
// their rule; every other code is the contract's or the gate's on a form embedded in the BPMN. Those are
// split by the finding's severity, because a bpmnlint rule reports at the one category its config gives.
const { findingsFor } = require('./findings');

/** @type {Record<string, string>} finding code → rule */
const RULE_OF_CODE = {
  unwritten_read: 'unwritten-read',
  unquoted_literal: 'unquoted-literal',
  misspelled_variable: 'misspelled-variable',
  decision_type_mismatch: 'decision-type-mismatch',
  form_not_found: 'form-not-found',
  unreadable_form: 'unreadable-form',
};

/** @param {{ code: string, severity: string }} finding */
function ruleOf(finding) {
  return RULE_OF_CODE[finding.code] || (finding.severity === 'error' ? 'embedded-form' : 'embedded-form-warning');
}

/**
 * The factory of rule `name`: bpmnlint calls it with the rule's options (`{ project }`, optional) and calls
 * `check` on every element, the definitions first.
 * @param {string} name
 */
function formgenRule(name) {

  /** @param {{ project?: string | { name: string, text: string }[] }} [options] */
  return function(options) {
    const project = options && options.project;
    return {

      /**
       * @param {any} node
       * @param {{ report(id: string, message: string): void }} reporter
       */
      check(node, reporter) {
        if (node.$type !== 'bpmn:Definitions') return;
        for (const finding of findingsFor(node, project)) {
          if (ruleOf(finding) === name) reporter.report(finding.elementId || finding.processId, finding.message);
        }

        // the core read the whole diagram: its elements need no visit
        return false;
      },
    };
  };
}

module.exports = { formgenRule, ruleOf };
