// What the bundler's loaders make of non-JavaScript imports.
declare module '*.bpmn' {
  const text: string;
  export default text;
}
declare module '*.css';
declare module '*.wasm' {
  // esbuild's `binary` loader: the file's bytes
  const bytes: Uint8Array;
  export default bytes;
}
