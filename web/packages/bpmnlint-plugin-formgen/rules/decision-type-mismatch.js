// formgen/decision-type-mismatch: see the README's table of rules.
module.exports = require('../lib/rule').formgenRule('decision-type-mismatch');
