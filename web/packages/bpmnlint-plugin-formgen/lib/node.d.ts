// The types of lib/node.js (and of lib/browser.js, which a browser bundle takes in its place). Declared here
// so that web/'s type check, which has no Node types, reads these instead of the Node-only code.
export function loadCore(core: typeof import('@formgen/core')): boolean;
export function readProject(dir: string): { name: string, text: string }[] | null;
