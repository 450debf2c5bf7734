// The plugin's settings in the Modeler's Settings dialog (Modeler 5.40+ passes `settings` to client
// extensions): formgen's URL, a token, and how a proposal binds its step. The values live in the Modeler's
// settings.json (the user data folder); they reach the bpmn-js module through `connection`. Without a URL
// everything runs in the Modeler (formgen's core in the plugin); a URL adds that service's model Workers.
import React from 'camunda-modeler-plugin-helpers/vendor/react.js';

export const DEFAULT_URL = '';

/** The settings group formgen registers. */
export const SETTINGS = {
  id: 'formgen',
  title: 'formgen',
  properties: {
    'formgen.url': {
      type: 'text',
      label: 'formgen URL',
      default: DEFAULT_URL,
      description: 'Optional: where formgen serve answers, e.g. https://formgen.example.com, for its model Workers (its server.cors_origins must admit the Modeler). Empty: the builtin drafts in the Modeler, with no server.',
    },
    'formgen.token': {
      type: 'password',
      label: 'Token',
      default: '',
      description: 'The Bearer token when formgen runs with auth.mode = "tokens"; empty otherwise. Stored in the Modeler\'s settings.json.',
    },
    'formgen.binding': {
      type: 'select',
      label: 'Bind a generated form',
      default: 'linked',
      options: [
        { label: 'Linked (zeebe:formDefinition formId; download the .form beside the .bpmn)', value: 'linked' },
        { label: 'Embedded in the process (zeebe:userTaskForm; user tasks only)', value: 'embedded' },
      ],
    },
  },
};

/**
 * What the bpmn-js module reads at every call, and who wants to hear of a change.
 * @type {{ url: string, token: string, binding: 'linked' | 'embedded', listeners: Set<() => void> }}
 */
export const connection = { url: DEFAULT_URL, token: '', binding: 'linked', listeners: new Set() };

/**
 * Registers the settings and follows them.
 * @param {any} settings the Modeler's `settings` (register, get, subscribe)
 */
export function followSettings(settings) {
  const values = settings.register(SETTINGS);
  apply(values);
  for (const key of Object.keys(SETTINGS.properties)) {
    settings.subscribe(key, (/** @type {{ value: any }} */ { value }) => apply({ [key]: value }));
  }
}

/** @param {Record<string, any>} values */
function apply(values) {
  if ('formgen.url' in values) connection.url = String(values['formgen.url'] || DEFAULT_URL).trim();
  if ('formgen.token' in values) connection.token = String(values['formgen.token'] || '').trim();
  if ('formgen.binding' in values) connection.binding = values['formgen.binding'] === 'embedded' ? 'embedded' : 'linked';
  for (const listener of connection.listeners) listener();
}

/** A client extension that draws nothing: it only registers and follows the settings. */
export class FormgenSettings extends React.PureComponent {

  /** @param {any} props */
  constructor(props) {
    super(props);
    const settings = props.settings || (props._getGlobal && props._getGlobal('settings'));
    if (settings) followSettings(settings);
    else if (props.log) props.log({ category: 'formgen', message: 'This Modeler has no settings API: formgen runs without a service (the builtin drafts).' });
  }

  render() {
    return null;
  }
}
