// The plugin's client script: registers formgen's bpmn-js module for Camunda 8 diagrams and a client
// extension that reads the plugin's settings. The properties panel, preact and React are the Modeler's own
// (camunda-modeler-plugin-helpers' vendor exports, aliased at bundling), so the entries render in its panel.
// formgen's core (WebAssembly) is inside this script: the data picture, the check and the builtin's draft
// work with no server; a formgen URL in the settings adds that service's model Workers.
import { registerClientExtension, registerCloudBpmnJSPlugin } from 'camunda-modeler-plugin-helpers';
import { createClient } from '@formgen/client';
import { Formgen, FormgenBpmnModule } from '@formgen/bpmn-js';

import { FormgenSettings, connection } from './settings.js';
import { core } from './core.js';
import './lint.js'; // formgen's bpmnlint rules as the Modeler's lint rules

// One client for every diagram, following the settings; none while no URL is set.
const client = createClient({ baseUrl: connection.url || undefined, token: () => connection.token });
const service = () => (connection.url ? client : null);

/** @type {Set<Formgen>} */
const services = new Set();
connection.listeners.add(() => {
  if (connection.url) client.setBaseUrl(connection.url);
  for (const formgen of services) {
    formgen.binding = connection.binding;
    formgen.setClient(service());
  }
});

/**
 * The `formgen` service for a Modeler tab: configured from the plugin's settings, not the modeller's config.
 * @param {any} eventBus
 * @param {any} bpmnjs
 */
function createFormgen(eventBus, bpmnjs) {
  const formgen = new Formgen({ client: service(), binding: connection.binding, core }, eventBus, bpmnjs);
  services.add(formgen);
  eventBus.on('diagram.destroy', () => services.delete(formgen));
  return formgen;
}
createFormgen.$inject = [ 'eventBus', 'bpmnjs' ];

export const FormgenPluginModule = {
  ...FormgenBpmnModule,
  formgen: [ 'factory', createFormgen ],
};

registerClientExtension(FormgenSettings);
registerCloudBpmnJSPlugin(FormgenPluginModule);
