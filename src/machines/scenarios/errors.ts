/**
 * ScenarioError: what is wrong with a scenario, options or manifest, in one line that names the
 * document, the field and (for YAML) the line, never a TypeError from deep inside the simulation.
 */
export interface ScenarioErrorLocation {
  /** the document or object, as a reader names it: "document 3 (Pod default/web-0)", "objects[2] (PersistentVolumeClaim default/data)" */
  document?: string;
  /** 1-based position of the YAML document, or of the object in its list */
  documentIndex?: number;
  /** the field inside it, as a path: "spec.volumes[0].persistentVolumeClaim.claimName" */
  field?: string;
  /** 1-based line (and column) in the YAML text */
  line?: number;
  column?: number;
}

export class ScenarioError extends Error {
  override name = 'ScenarioError';
  readonly document?: string;
  readonly documentIndex?: number;
  readonly field?: string;
  readonly line?: number;
  readonly column?: number;
  /** the message without its location prefix */
  readonly reason: string;

  constructor(message: string, where: ScenarioErrorLocation = {}) {
    const prefix = [
      where.line !== undefined ? `line ${where.line}` : '',
      where.document ?? '',
      where.field ?? '',
    ].filter(Boolean).join(', ');
    super(prefix ? `${prefix}: ${message}` : message);
    this.reason = message;
    if (where.document !== undefined) this.document = where.document;
    if (where.documentIndex !== undefined) this.documentIndex = where.documentIndex;
    if (where.field !== undefined) this.field = where.field;
    if (where.line !== undefined) this.line = where.line;
    if (where.column !== undefined) this.column = where.column;
  }
}
