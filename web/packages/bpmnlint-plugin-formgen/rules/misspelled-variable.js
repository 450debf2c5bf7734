// formgen/misspelled-variable: see the README's table of rules.
module.exports = require('../lib/rule').formgenRule('misspelled-variable');
