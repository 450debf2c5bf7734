// The plugin descriptor the Camunda Modeler requires from `resources/plugins/formgen/index.js` (or the user
// data `plugins` folder): its name, the client script it loads into the editor window, and its stylesheet.
module.exports = {
  name: 'formgen',
  script: './dist/client.js',
  style: './dist/style.css',
};
