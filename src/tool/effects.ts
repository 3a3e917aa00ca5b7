/**
 * Effects → hints, and raw annotations → hints, through one code path.
 *
 * The spec's defaults (readOnly false, destructive true, idempotent false,
 * openWorld true) live only in its prose; hosts that read an absent hint as
 * `false` treat a destructive tool as harmless. candor always puts all four hints
 * on the wire, explicitly, and refuses a definition that contradicts itself.
 */
import { DefinitionError } from '../errors.js';
import type { Effect, HintName, HintSource, ResolvedHints, ToolAnnotations, World } from './types.js';

/** The spec's values for absent hints: the worst case. */
export const SPEC_DEFAULT_HINTS: Readonly<ResolvedHints> = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

const EFFECTS: readonly Effect[] = ['read', 'additive', 'destructive'];
const WORLDS: readonly World[] = ['closed', 'open'];
const HINT_NAMES: readonly HintName[] = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/** What a definition says about behaviour, before resolution. */
export interface BehaviourDeclaration {
  effect?: Effect;
  world?: World;
  idempotent?: boolean;
  annotations?: ToolAnnotations;
}

export interface ResolvedBehaviour {
  effect: Effect;
  world: World;
  idempotent: boolean;
  hints: ResolvedHints;
  sources: Record<HintName, HintSource>;
  /** True when neither effects nor any hint was declared. */
  undeclared: boolean;
}

/** The hints an effect declaration implies (the table in ARCHITECTURE.md, "Honest hints"). */
export function hintsFromEffects(effect: Effect, world: World, idempotent = false): ResolvedHints {
  return {
    readOnlyHint: effect === 'read',
    destructiveHint: effect === 'destructive',
    // A read changes nothing, so repeating it has no additional effect.
    idempotentHint: effect === 'read' ? true : idempotent,
    openWorldHint: world === 'open',
  };
}

/** The effect that a full set of hints describes (the inverse of {@link hintsFromEffects}). */
export function effectFromHints(hints: Pick<ResolvedHints, 'readOnlyHint' | 'destructiveHint'>): Effect {
  if (hints.readOnlyHint) return 'read';
  return hints.destructiveHint ? 'destructive' : 'additive';
}

/**
 * Resolve a definition's behaviour: effects and annotations together, checked
 * against each other. Throws {@link DefinitionError} naming the fields that disagree.
 */
export function resolveBehaviour(toolName: string, decl: BehaviourDeclaration): ResolvedBehaviour {
  const where = `tool "${toolName}"`;
  if (decl.effect !== undefined && !EFFECTS.includes(decl.effect)) {
    throw new DefinitionError(
      `${where}: effect must be one of ${EFFECTS.map((e) => `'${e}'`).join(', ')}; got ${JSON.stringify(decl.effect)}.`,
      { fields: ['effect'] },
    );
  }
  if (decl.world !== undefined && !WORLDS.includes(decl.world)) {
    throw new DefinitionError(`${where}: world must be 'closed' or 'open'; got ${JSON.stringify(decl.world)}.`, {
      fields: ['world'],
    });
  }
  if (decl.idempotent !== undefined && typeof decl.idempotent !== 'boolean') {
    throw new DefinitionError(`${where}: idempotent must be a boolean.`, { fields: ['idempotent'] });
  }
  const raw = decl.annotations ?? {};
  for (const hint of HINT_NAMES) {
    const value = raw[hint];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new DefinitionError(`${where}: annotations.${hint} must be a boolean; got ${JSON.stringify(value)}.`, {
        fields: [`annotations.${hint}`],
      });
    }
  }

  // Hints that are meaningless together: the spec says destructive/idempotent
  // only mean something when readOnlyHint is false.
  if (raw.readOnlyHint === true && raw.destructiveHint === true) {
    throw new DefinitionError(
      `${where}: annotations.readOnlyHint is true but annotations.destructiveHint is also true; a read-only tool cannot be destructive. Drop one, or declare effect: 'read' | 'destructive' instead.`,
      { fields: ['annotations.readOnlyHint', 'annotations.destructiveHint'] },
    );
  }
  if (raw.readOnlyHint === true && raw.idempotentHint === false) {
    throw new DefinitionError(
      `${where}: annotations.readOnlyHint is true but annotations.idempotentHint is false; a read-only tool has no effect to repeat. Remove idempotentHint.`,
      { fields: ['annotations.readOnlyHint', 'annotations.idempotentHint'] },
    );
  }

  const hasEffects = decl.effect !== undefined || decl.world !== undefined || decl.idempotent !== undefined;
  const hasHints = HINT_NAMES.some((h) => raw[h] !== undefined);

  if (decl.effect === undefined && (decl.world !== undefined || decl.idempotent !== undefined)) {
    throw new DefinitionError(
      `${where}: world/idempotent were declared without effect; add effect: 'read' | 'additive' | 'destructive'.`,
      { fields: ['effect'] },
    );
  }
  if (decl.effect === 'read' && decl.idempotent === false) {
    throw new DefinitionError(
      `${where}: effect 'read' is always idempotent, but idempotent is false. Remove idempotent, or choose another effect.`,
      { fields: ['effect', 'idempotent'] },
    );
  }

  if (decl.effect !== undefined) {
    if (decl.world === undefined && raw.openWorldHint === undefined) {
      throw new DefinitionError(
        `${where}: effect is declared but world is not; add world: 'closed' (only its own data) or 'open' (web, APIs, other people).`,
        { fields: ['world'] },
      );
    }
    const world = decl.world ?? (raw.openWorldHint ? 'open' : 'closed');
    const idempotent = decl.idempotent ?? (decl.effect !== 'read' && raw.idempotentHint === true);
    const hints = hintsFromEffects(decl.effect, world, idempotent);
    const disagreeing = HINT_NAMES.filter((h) => raw[h] !== undefined && raw[h] !== hints[h]);
    if (disagreeing.length > 0) {
      const detail = disagreeing
        .map((h) => `annotations.${h} is ${raw[h]} but ${describeSource(h, decl)} makes it ${hints[h]}`)
        .join('; ');
      throw new DefinitionError(
        `${where}: ${detail}. Declare the behaviour once: keep effect/world and drop the hints.`,
        {
          fields: [...new Set([...disagreeing.map((h) => `annotations.${h}`), ...disagreeing.map((h) => fieldFor(h))])],
        },
      );
    }
    const sources = {} as Record<HintName, HintSource>;
    for (const h of HINT_NAMES) sources[h] = 'effect';
    if (decl.world === undefined) sources.openWorldHint = 'annotation';
    if (decl.effect !== 'read' && decl.idempotent === undefined) {
      sources.idempotentHint = raw.idempotentHint === undefined ? 'default' : 'annotation';
    }
    return { effect: decl.effect, world, idempotent: hints.idempotentHint, hints, sources, undeclared: false };
  }

  // Raw annotations: resolved against the spec defaults, each default made explicit.
  const hints = { ...SPEC_DEFAULT_HINTS };
  const sources = {} as Record<HintName, HintSource>;
  for (const h of HINT_NAMES) {
    const value = raw[h];
    if (value === undefined) {
      sources[h] = 'default';
    } else {
      hints[h] = value;
      sources[h] = 'annotation';
    }
  }
  if (hints.readOnlyHint) {
    // Meaningless for a read-only tool (spec); make them the consistent values.
    hints.destructiveHint = false;
    hints.idempotentHint = true;
  }
  const effect = effectFromHints(hints);
  return {
    effect,
    world: hints.openWorldHint ? 'open' : 'closed',
    idempotent: hints.idempotentHint,
    hints,
    sources,
    undeclared: !hasEffects && !hasHints,
  };
}

function fieldFor(hint: HintName): string {
  return hint === 'openWorldHint' ? 'world' : hint === 'idempotentHint' ? 'idempotent' : 'effect';
}

function describeSource(hint: HintName, decl: BehaviourDeclaration): string {
  if (hint === 'openWorldHint') return `world: '${decl.world}'`;
  if (hint === 'idempotentHint' && decl.idempotent !== undefined) return `idempotent: ${decl.idempotent}`;
  return `effect: '${decl.effect}'`;
}
