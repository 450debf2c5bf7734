// What the bundler's loaders make of non-JavaScript imports.
declare module '*.bpmn' {
  const text: string;
  export default text;
}
declare module '*.css';
