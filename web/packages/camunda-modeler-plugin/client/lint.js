// formgen's rules as the Modeler's lint rules for Camunda 8 diagrams: bpmnlint-plugin-formgen's recommended
// config, packed as `{ config, resolver }` (what a `lintRules.<tab type>` client plugin is), so its findings
// show in the Problems panel and on the canvas. The rules report nothing until the core is compiled from the
// bytes this script carries (./core.js); the Modeler lints again on the diagram's next change.
import { registerClientPlugin } from 'camunda-modeler-plugin-helpers';
import { ready } from 'bpmnlint-plugin-formgen';
import packed from 'bpmnlint-plugin-formgen/packed';

import { core } from './core.js';

registerClientPlugin(packed, 'lintRules.cloud-bpmn');

ready(core).catch((err) => console.error('formgen: the core for the lint rules could not be loaded', err));
