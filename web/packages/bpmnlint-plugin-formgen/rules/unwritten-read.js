// formgen/unwritten-read: see the README's table of rules.
module.exports = require('../lib/rule').formgenRule('unwritten-read');
