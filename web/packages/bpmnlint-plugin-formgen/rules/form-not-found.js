// formgen/form-not-found: see the README's table of rules.
module.exports = require('../lib/rule').formgenRule('form-not-found');
