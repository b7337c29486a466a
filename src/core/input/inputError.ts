/**
 * A problem with a user's file: which file, where (line:column and/or JSON path) and
 * what was expected. Rendered as one line, never as a stack trace.
 */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly where: { line?: number; column?: number; path?: string } = {},
  ) {
    super(formatProblem(file, detail, where));
    this.name = 'InputError';
  }
}

export interface Problem {
  file: string;
  message: string;
  line?: number;
  column?: number;
  path?: string;
  severity: 'error' | 'warning';
}

export function formatProblem(file: string, detail: string, where: { line?: number; column?: number; path?: string; severity?: 'error' | 'warning' }): string {
  const loc = where.line !== undefined ? `:${where.line}:${where.column ?? 1}` : '';
  const severity = where.severity === 'warning' ? ' warning:' : '';
  const path = where.path ? ` at ${where.path}` : '';
  return `${file}${loc}:${severity}${path ? path + ':' : ''} ${detail}`;
}

/** `file:line:col: [warning:] at $.path: message` */
export function problemLine(p: Problem): string {
  return formatProblem(p.file, p.message, p);
}

export function problemFromError(file: string, error: unknown): Problem {
  if (error instanceof InputError) {
    return { file: error.file, message: error.detail, ...error.where, severity: 'error' };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { file, message: `unexpected problem: ${message.split('\n')[0]}`, severity: 'error' };
}
