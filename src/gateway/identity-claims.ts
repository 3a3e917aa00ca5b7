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

/** Who a request is, for the rules. */
export interface RulesPrincipal {
  id: string;
  groups: string[];
  /** The IdP's department claim (`''` when the token has none). */
  department: string;
  client: string;
  scopes: string[];
}

/**
 * The principal of a request: the token's subject, groups (from `groupsClaim`), department
 * (from `departmentClaim`), client and scopes.
 *
 * @example
 * ```ts
 * principalOf(ctx.auth, 'groups'); // { id: 'alice', groups: ['dev'], department: 'R&D', client: 'cli', scopes: ['tools:read'] }
 * ```
 */
export function principalOf(
  auth: AuthInfo | undefined,
  groupsClaim = 'groups',
  departmentClaim = 'department',
): RulesPrincipal {
  if (auth === undefined) return LOCAL_PRINCIPAL;
  return {
    id: auth.subject ?? auth.clientId ?? 'unknown',
    groups: groupsOf(auth, groupsClaim),
    department: departmentOf(auth, departmentClaim),
    client: auth.clientId ?? '',
    scopes: [...(auth.scopes ?? [])],
  };
}

/** Without `--auth-*`: one person, the same object every time (its class is computed once). */
export const LOCAL_PRINCIPAL: RulesPrincipal = Object.freeze({
  id: 'local',
  groups: [],
  department: '',
  client: '',
  scopes: [],
});
