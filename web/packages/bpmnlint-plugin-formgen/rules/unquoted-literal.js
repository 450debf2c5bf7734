// formgen/unquoted-literal: see the README's table of rules.
module.exports = require('../lib/rule').formgenRule('unquoted-literal');
