// The plugin's client script: registers formgen's bpmn-js module for Camunda 8 diagrams and a client
// extension that reads the plugin's settings. The properties panel, preact and React are the Modeler's own
// (camunda-modeler-plugin-helpers' vendor exports, aliased at bundling), so the entries render in its panel.
import { registerClientExtension, registerCloudBpmnJSPlugin } from 'camunda-modeler-plugin-helpers';
import { createClient } from '@formgen/client';
import { Formgen, FormgenBpmnModule } from '@formgen/bpmn-js';

import { FormgenSettings, connection } from './settings.js';

// One client for every diagram, following the settings.
const client = createClient({ baseUrl: connection.url, token: () => connection.token });

/** @type {Set<Formgen>} */
const services = new Set();
connection.listeners.add(() => {
  client.setBaseUrl(connection.url);
  for (const service of services) {
    service.binding = connection.binding;
    service.probe();
  }
});

/**
 * The `formgen` service for a Modeler tab: configured from the plugin's settings, not the modeller's config.
 * @param {any} eventBus
 * @param {any} bpmnjs
 */
function createFormgen(eventBus, bpmnjs) {
  const service = new Formgen({ client, binding: connection.binding }, eventBus, bpmnjs);
  services.add(service);
  eventBus.on('diagram.destroy', () => services.delete(service));
  return service;
}
createFormgen.$inject = [ 'eventBus', 'bpmnjs' ];

export const FormgenPluginModule = {
  ...FormgenBpmnModule,
  formgen: [ 'factory', createFormgen ],
};

registerClientExtension(FormgenSettings);
registerCloudBpmnJSPlugin(FormgenPluginModule);
