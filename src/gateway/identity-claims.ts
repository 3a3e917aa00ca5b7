/**
 * What the gateway's rules and profiles read of a person's verified token: the groups
 * and the department the identity provider put in it (claim names configurable, as
 * IdPs spell them differently: `groups`, `roles`, `department`, `dept`, …).
 */
import type { AuthInfo } from '../tool/types.js';

/** The claim names read (defaults `groups` and `department`). */
export interface IdentityClaimNames {
  groupsClaim?: string | undefined;
  departmentClaim?: string | undefined;
}

/**
 * The person's groups: a list claim, or a space-separated string.
 *
 * @example
 * ```ts
 * groupsOf({ claims: { groups: ['finance'] } }); // ['finance']
 * ```
 */
export function groupsOf(auth: AuthInfo | undefined, claim = 'groups'): string[] {
  const value = auth?.claims?.[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return value.split(/\s+/).filter((g) => g.length > 0);
  return [];
}

/**
 * The person's department (a string claim), or `''`.
 *
 * @example
 * ```ts
 * departmentOf({ claims: { department: 'Finance' } }); // 'Finance'
 * ```
 */
export function departmentOf(auth: AuthInfo | undefined, claim = 'department'): string {
  const value = auth?.claims?.[claim];
  return typeof value === 'string' ? value : '';
}
