/** A file of the process's project, as the editor holds it. */
export interface ProjectFile {
  /** Its path in the project (`forms/approve.form`); `.form` and `.dmn` files are read. */
  name: string;
  text: string;
}

/** What the calls take; each reads what it needs. */
export interface CoreRequest {
  /** The BPMN: its text, or its bytes (decoded as the CLI decodes a file). */
  processXml?: string | Uint8Array;
  /** How the answer names the process file (default `process.bpmn`). */
  processName?: string;
  processId?: string;
  elementId?: string;
  /** The form: a form-js schema, or its JSON text. */
  form?: object | string;
  /** How the answer names the form file (default `form.form`). */
  formName?: string;
  /** The id the editor holds the form under. */
  formId?: string;
  /** The author's brief, for a draft. */
  description?: string;
  project?: ProjectFile[];
}

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  key?: string;
  elementId?: string;
  [more: string]: unknown;
}

/** A finding placed in its file, as `formgen check --format json` prints it. */
export interface LocatedFinding extends Finding {
  file: string;
  line: number;
  column: number;
}

export interface Outline {
  file: string;
  processes: object[];
  step?: object;
  findings?: Finding[];
}

export interface Drafted {
  schema: object;
  warnings: string[];
  findings: Finding[];
}

export interface Checked {
  file: string;
  schema: object;
  findings: LocatedFinding[];
}

export interface Validated {
  schema: object;
  warnings: string[];
  findings: Finding[];
}

export class FormgenCoreError extends Error {
  code: string;
}

export function init(source?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;
export function initSync(source: BufferSource | WebAssembly.Module): void;
export function isReady(): boolean;
export function outline(request: CoreRequest): Outline;
export function draft(request: CoreRequest): Drafted;
export function check(request: CoreRequest): Checked;
export function validate(request: CoreRequest): Validated;
export interface Linted {
  findings: (Finding & { processId: string })[];
}
export function lint(request: CoreRequest): Linted;
