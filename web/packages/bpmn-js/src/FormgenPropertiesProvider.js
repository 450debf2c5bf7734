// Adds formgen's entries to the Form group that bpmn-js-properties-panel's Zeebe provider draws for a user
// task or start event: "Generate form" and the step's data picture with the findings for its bound form.
// The entries are small preact components (the properties panel's own preact) that mount plain DOM.
import { h } from '@bpmn-io/properties-panel/preact';
import { useEffect, useRef } from '@bpmn-io/properties-panel/preact/hooks';
import { useService } from 'bpmn-js-properties-panel';

import { mountData, mountGenerate } from './views.js';

const LOW_PRIORITY = 400; // after the Zeebe provider (500), which draws the Form group

/**
 * @param {{ element: any, id: string, mount: typeof mountGenerate }} props
 */
function Mounted({ element, id, mount }) {
  const ref = useRef(/** @type {HTMLDivElement | null} */ (null));
  const formgen = useService('formgen');
  const eventBus = useService('eventBus');
  useEffect(() => {
    if (!ref.current) return undefined;
    return mount(ref.current, formgen, eventBus, element);
  }, [ element, formgen, eventBus, mount ]);
  return h('div', { ref, class: 'bio-properties-panel-entry formgen-entry', 'data-entry-id': id });
}

/** @param {{ element: any, id: string }} props */
const GenerateEntry = (props) => h(Mounted, { ...props, mount: mountGenerate });

/** @param {{ element: any, id: string }} props */
const DataEntry = (props) => h(Mounted, { ...props, mount: mountData });

export default class FormgenPropertiesProvider {

  /** @param {any} propertiesPanel */
  constructor(propertiesPanel) {
    propertiesPanel.registerProvider(LOW_PRIORITY, this);
  }

  /**
   * @param {any} element
   * @returns {(groups: any[]) => any[]}
   */
  getGroups(element) {
    return (groups) => {
      const form = groups.find((g) => g.id === 'form');
      if (!form) return groups;
      form.entries = [
        ...form.entries,
        { id: 'formgen-generate', element, component: GenerateEntry, isEdited: () => false },
        { id: 'formgen-data', element, component: DataEntry, isEdited: () => false },
      ];
      return groups;
    };
  }
}

FormgenPropertiesProvider.$inject = [ 'propertiesPanel' ];
