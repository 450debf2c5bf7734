// formgen's core for the plugin: the .wasm's bytes inside the client script (esbuild's `binary` loader),
// since a Modeler plugin cannot count on fetching a file beside its script (the Modeler serves plugins
// through its own protocol). @formgen/bpmn-js compiles them on first use.
import wasm from '@formgen/core/formgen_core.wasm';

/** The core's bytes, for the bpmn-js module's `core` option. */
export const core = wasm;
