import { type SessionPrincipal } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';
import { isAuthoredBy, type OwnerIdentity } from '@cairn/memory';
import { type ExportedMemory } from './contract/export-format';
import { type ImportLine } from './import-parser';

/** A line's recorded author as the ownership rule reads it (an export never carries token ids). */
const authorOf = (memory: ExportedMemory): OwnerIdentity => ({
  userId: memory.author.userId,
  agentId: memory.author.agentId,
  tokenId: null,
});

const namesNobody = (memory: ExportedMemory) => memory.author.userId === null && memory.author.agentId === null;

const importerOf = (principal: SessionPrincipal): OwnerIdentity => ({
  userId: principal.userId,
  agentId: principal.agentId,
  tokenId: principal.tokenId,
});

/** The line's memory is the importer's own: it names the importer, or nobody (the importer then becomes its author). */
function belongsToImporter(principal: SessionPrincipal, memory: ExportedMemory): boolean {
  return namesNobody(memory) || isAuthoredBy(importerOf(principal), authorOf(memory));
}

/**
 * A private memory is its author's alone, so an import must not plant one under somebody else's
 * name (it would read to them as their own note): only an admin (a restore) imports private
 * lines another identity wrote. Refused whole, naming the lines, before anything is written.
 */
export function assertMayImportPrivate(principal: SessionPrincipal, lines: readonly ImportLine[]): void {
  if (principal.role === 'admin') return;
  const foreign = lines.filter(({ memory }) => memory.scope === 'private' && !belongsToImporter(principal, memory));
  if (foreign.length === 0) return;
  const named = foreign
    .slice(0, 20)
    .map(({ line }) => line)
    .join(', ');
  throw new ForbiddenError(
    `Line(s) ${named}${foreign.length > 20 ? ', …' : ''} hold private memories of another author; only an admin imports those (a restore)`,
    'not_owner',
  );
}

/**
 * The token an imported memory records as its author: the importer's when the line is its own,
 * none otherwise, so a restored private memory stays its author's alone and the importing
 * admin's reads do not gain it.
 */
export function importedAuthorToken(principal: SessionPrincipal, memory: ExportedMemory): string | null {
  return belongsToImporter(principal, memory) ? principal.tokenId : null;
}
