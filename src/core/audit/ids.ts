import { randomBytes } from 'node:crypto';

export function newAuditId(method: string): string {
  return `${method}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}
