/** The sections of a project card, in the order every rendering shows them. */
export const PROJECT_CARD_SECTIONS = [
  'stack',
  'layout',
  'entryPoints',
  'buildAndTest',
  'conventions',
  'hotFiles',
  'notes',
] as const;
export type ProjectCardSection = (typeof PROJECT_CARD_SECTIONS)[number];

/**
 * Limits of a card's content. A card is read at the start of every session, so it stays
 * small: lists are bounded in items and each text in characters.
 */
export const CARD_LIMITS = {
  stackItems: 30,
  stackChars: 200,
  layoutItems: 60,
  listItems: 30,
  pathChars: 300,
  whyChars: 300,
  commandChars: 300,
  conventionChars: 300,
  /** A directory's file count; far above any repository, so a real count always fits. */
  files: 10_000_000,
  notesChars: 4_000,
  /** The reason an edit gives, kept with its version. */
  noteChars: 500,
} as const;

/** A page of the version history: at most this many versions. */
export const CARD_VERSIONS_MAX_LIMIT = 100;
/** PostgreSQL's int: the largest version number a row can hold. */
export const CARD_VERSION_MAX = 2_147_483_647;

export interface LayoutEntry {
  readonly path: string;
  readonly files: number;
  readonly summary: string;
}

export interface PathReason {
  readonly path: string;
  readonly why: string;
}

export interface CommandReason {
  readonly command: string;
  readonly why: string;
}

/** What a card says: its derived and edited sections alike. */
export interface ProjectCardContent {
  readonly stack: string[];
  readonly layout: LayoutEntry[];
  readonly entryPoints: PathReason[];
  readonly buildAndTest: CommandReason[];
  readonly conventions: string[];
  readonly hotFiles: PathReason[];
  readonly notes: string;
}

/** The index run derived sections came from. */
export interface DerivedFrom {
  readonly branch: string;
  /** Null when the indexed tree was not a git commit (a working copy outside git). */
  readonly commit: string | null;
  /** ISO 8601. */
  readonly at: string;
}

/** One version of a project's card, as every way in returns it (JSON-ready: ISO strings). */
export interface ProjectCardView {
  readonly project: string;
  /** 0 for a project that has no card yet (its content then is empty). */
  readonly version: number;
  readonly content: ProjectCardContent;
  /** Sections last written by an edit rather than derivation; derivation leaves them alone. */
  readonly edited: ProjectCardSection[];
  readonly derivedFrom: DerivedFrom | null;
  /** When this version was written; null for version 0. */
  readonly updatedAt: string | null;
  /** Who wrote this version; null when derivation did (or for version 0). */
  readonly updatedBy: { readonly userId: string | null; readonly agentId: string | null } | null;
  /** The reason an edit gave; null for derivation. */
  readonly note: string | null;
}

/** A version in the history listing: what the view says of it, without its content. */
export type ProjectCardVersionSummary = Omit<ProjectCardView, 'project' | 'content'>;

export interface ProjectCardVersionPage {
  readonly project: string;
  readonly items: ProjectCardVersionSummary[];
  /** Pass as `before` for the next (older) page; null when this page reaches version 1. */
  readonly nextBefore: number | null;
}

/** An edit: the sections given replace the card's and count as edited from then on. */
export interface ProjectCardEdit {
  readonly changes: Partial<ProjectCardContent>;
  /** The version the change was made against: another version current → 409 conflict. */
  readonly expectedVersion?: number;
  readonly note?: string;
}

/** Where derived content came from: the index run's branch and commit. */
export interface DerivationSource {
  readonly branch: string;
  readonly commit: string | null;
}

export const EMPTY_CARD_CONTENT: ProjectCardContent = {
  stack: [],
  layout: [],
  entryPoints: [],
  buildAndTest: [],
  conventions: [],
  hotFiles: [],
  notes: '',
};
