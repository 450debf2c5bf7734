// A stand-in for the Camunda Modeler's client, as far as a client plugin sees it: the globals
// camunda-modeler-plugin-helpers reads (window.vendor.propertiesPanel with the properties panel and its preact,
// window.react), a Settings service like the Modeler's (register, get, set, subscribe), and `startModeler()`,
// which renders the registered client extensions with `settings` and opens a Camunda 8 diagram in a bpmn-js
// Modeler with the properties panel, the Zeebe provider and every module the plugins registered
// (window.plugins). The Modeler itself is Electron with React; this runs in Chromium with preact/compat in
// React's place.
import BpmnModeler from 'bpmn-js/lib/Modeler';
import * as BpmnPropertiesPanel from 'bpmn-js-properties-panel';
import * as PropertiesPanelCommon from '@bpmn-io/properties-panel';
import * as preact from '@bpmn-io/properties-panel/preact';
import * as hooks from '@bpmn-io/properties-panel/preact/hooks';
import * as compat from '@bpmn-io/properties-panel/preact/compat';
import * as jsxRuntime from '@bpmn-io/properties-panel/preact/jsx-runtime';
import ZeebeBehaviorsModule from 'camunda-bpmn-js-behaviors/lib/camunda-cloud';
import zeebeModdle from 'zeebe-bpmn-moddle/resources/zeebe.json';

import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import '@bpmn-io/properties-panel/dist/assets/properties-panel.css';
import vacationXml from '../../src/vacation.bpmn';

window.vendor = {
  propertiesPanel: {
    bpmn: BpmnPropertiesPanel,
    common: PropertiesPanelCommon,
    preact: { root: preact, hooks, compat, jsxRuntime },
  },
};
window.react = compat;

/** The Modeler's Settings, in memory: values for keys only once registered, defaults, listeners. */
class Settings {
  constructor(values) {
    this._values = { ...values };
    this._schema = {};
    this._defaults = {};
    this._listeners = {};
  }

  register({ id, properties }) {
    for (const key of Object.keys(properties)) {
      if (!key.startsWith(`${id}.`)) throw new Error(`Property key ${key} must start with group ID ${id}`);
      this._schema[key] = properties[key];
      this._defaults[key] = properties[key].default;
    }
    return Object.fromEntries(Object.keys(properties).map((key) => [ key, this.get(key) ]));
  }

  get(key) {
    if (!(key in this._schema)) throw new Error(`Setting with key ${key} is not registered`);
    return this._values[key] ?? this._defaults[key];
  }

  set(values) {
    for (const [ key, value ] of Object.entries(values)) {
      this._values[key] = value;
      for (const listener of this._listeners[key] || []) listener({ value: this.get(key) });
    }
  }

  subscribe(key, callback) {
    this._listeners[key] = [ ...(this._listeners[key] || []), callback ];
  }
}

const plugins = (type) => (window.plugins || []).filter((p) => p.type === type).map((p) => p.plugin);

window.startModeler = async (settingsValues = {}) => {
  const settings = new Settings(settingsValues);
  window.settings = settings;
  const root = document.getElementById('plugin-root');
  for (const Extension of plugins('client')) {
    const props = { settings, subscribe: () => ({ cancel() {} }), triggerAction() {}, log() {}, displayNotification() {} };
    preact.render(preact.h(Extension, props), root.appendChild(document.createElement('div')));
  }
  const modeler = new BpmnModeler({
    container: '#canvas',
    moddleExtensions: { zeebe: zeebeModdle, ...Object.fromEntries(plugins('bpmn.modeler.moddleExtension').map((d) => [ d.prefix, d ])) },
    additionalModules: [
      BpmnPropertiesPanel.BpmnPropertiesPanelModule,
      BpmnPropertiesPanel.BpmnPropertiesProviderModule,
      BpmnPropertiesPanel.ZeebePropertiesProviderModule,
      ZeebeBehaviorsModule,
      ...plugins('bpmn.modeler.additionalModules'),
      ...plugins('bpmn.cloud.modeler.additionalModules'),
    ],
    propertiesPanel: { parent: '#properties', layout: { groups: { form: { open: true } } } },
  });
  window.modeler = modeler;
  await modeler.importXML(vacationXml);
  modeler.get('canvas').zoom('fit-viewport');
  document.body.dataset.ready = 'true';
};
