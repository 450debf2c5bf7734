// Packages without type declarations, as the packages use them.
declare module 'bpmn-js-properties-panel';
declare module 'camunda-modeler-plugin-helpers';
declare module 'camunda-modeler-plugin-helpers/vendor/react.js';
declare module 'moddle-xml';
