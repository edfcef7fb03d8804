import { type Migration } from '@cairn/db';

/**
 * Sensitive memories and the lifetime of sealed originals (issue 12).
 *
 * `memories.sensitive` (a column since 0002, unused until now) marks a memory whose whole content
 * is sealed in `secrets` (type `sensitive`); the row keeps only `[SECRET:sensitive:<id>]`.
 *
 * A sealed original must not outlive the text that refers to it. Triggers delete the `secrets`
 * rows of a source in the transaction that removes it, whatever path removes it (a REST or MCP
 * delete, the retention purge, the replacement of a document's older versions, working-memory
 * eviction (which first copies them to the memory the entry becomes), a cascade): a memory when it is soft-deleted (or deleted), a knowledge-base
 * document when it is deleted, a working-memory entry when it is deleted, and, when an entry's
 * value is overwritten, the originals its new value no longer carries. A memory's update keeps
 * them: its earlier versions, kept in its history, still carry their placeholders.
 */
export const sensitive: Migration = {
  version: 13,
  name: 'sensitive',
  async up(sql) {
    await sql(`CREATE INDEX secrets_by_source ON secrets (source_table, source_id)`);
    await sql(`
      CREATE FUNCTION secrets_drop_with_source() RETURNS trigger
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        source text;
      BEGIN
        -- Each branch reads only the columns of its own table (plpgsql plans a statement when it runs).
        IF TG_TABLE_NAME = 'working_memory' THEN
          source := OLD.agent_key || '/' || OLD.key;
        ELSE
          source := OLD.id::text;
        END IF;
        IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'working_memory' THEN
          DELETE FROM secrets s
           WHERE s.source_table = TG_TABLE_NAME AND s.source_id = source
             AND strpos(NEW.value, '[SECRET:' || s.type || ':' || s.placeholder_id || ']') = 0;
        ELSE
          DELETE FROM secrets s WHERE s.source_table = TG_TABLE_NAME AND s.source_id = source;
        END IF;
        RETURN NULL;
      END $$`);
    await sql(`
      CREATE TRIGGER memories_drop_secrets_on_delete AFTER DELETE ON memories
      FOR EACH ROW EXECUTE FUNCTION secrets_drop_with_source()`);
    await sql(`
      CREATE TRIGGER memories_drop_secrets_on_soft_delete AFTER UPDATE OF deleted_at ON memories
      FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
      EXECUTE FUNCTION secrets_drop_with_source()`);
    await sql(`
      CREATE TRIGGER kb_documents_drop_secrets AFTER DELETE ON kb_documents
      FOR EACH ROW EXECUTE FUNCTION secrets_drop_with_source()`);
    await sql(`
      CREATE TRIGGER working_memory_drop_secrets AFTER DELETE ON working_memory
      FOR EACH ROW EXECUTE FUNCTION secrets_drop_with_source()`);
    await sql(`
      CREATE TRIGGER working_memory_drop_replaced_secrets AFTER UPDATE OF value ON working_memory
      FOR EACH ROW WHEN (OLD.value IS DISTINCT FROM NEW.value)
      EXECUTE FUNCTION secrets_drop_with_source()`);
  },
};
