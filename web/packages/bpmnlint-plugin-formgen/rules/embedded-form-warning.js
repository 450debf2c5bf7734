// formgen/embedded-form-warning: see the README's table of rules.
module.exports = require('../lib/rule').formgenRule('embedded-form-warning');
