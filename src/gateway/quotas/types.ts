/**
 * Gateway quotas as plain data: which calls a quota counts (tool globs, servers,
 * effect classes), whose calls share one count (each person, or everyone), and
 * how many calls a window allows.
 */
import type { Effect } from '../../tool/types.js';

/** Whose calls share one count: each person their own (`person`), or every caller one (`all`). */
export type QuotaScope = 'person' | 'all';

/**
 * One quota of the gateway config's `"quotas"` list. A call counts against every
 * quota whose selectors all match it (no selector: every call); it is refused
 * when any of them is used up.
 */
export interface Quota {
  /** Named in the answer a refused call gets (default: a description made from the selectors). */
  name?: string;
  /** Tool globs, matched against the listed name and against `server__tool`. */
  tools?: string[];
  /** Upstream server names. */
  servers?: string[];
  /** Effect classes, from the tool's tightened hints: `read`, `additive`, `destructive`. */
  effects?: Effect[];
  /** Default `person`: each person (the token's issuer and subject) has their own count. */
  per?: QuotaScope;
  /** Calls allowed per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** What a refused call's result carries under `_meta["dev.candor/quota"]`, for clients that wait by themselves. */
export interface QuotaRefusal {
  /** The quota's name or description. */
  quota: string;
  max: number;
  windowMs: number;
  per: QuotaScope;
  /** How long until the call would be allowed, in milliseconds. */
  retryAfterMs: number;
}

/** The `_meta` key of a refused call's result. */
export const QUOTA_META_KEY = 'dev.candor/quota';
