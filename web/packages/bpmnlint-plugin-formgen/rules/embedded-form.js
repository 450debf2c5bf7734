// formgen/embedded-form: see the README's table of rules.
module.exports = require('../lib/rule').formgenRule('embedded-form');
